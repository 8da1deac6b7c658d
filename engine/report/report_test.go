package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/tier"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var at = time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)

func result() *runner.Result {
	tr := trace.New(func() time.Time { return at })
	tr.Add(trace.Entry{Stage: trace.Planning, Thought: "Execute 2 step(s)", Action: "plan", Commitments: []string{"step:h0", "report"}, Outcome: trace.Success})
	tr.Add(trace.Entry{Stage: trace.Execution, Thought: "Retrieve commit data", Action: "retrieve", Evidence: []string{"2 record(s)"}, Outcome: trace.Success})
	tr.Add(trace.Entry{Stage: trace.Correction, Thought: "MODIFY h0", Corrections: []string{"drop dates"}, Outcome: trace.Success})
	h := &history.History{ExecutionID: "run-1", TaskInput: "what changed last week?", Termination: history.Converged,
		Passes: []history.Pass{{Number: 1, StartedAt: at, EndedAt: at, Refinements: []history.Refinement{
			{Op: "MODIFY", Step: "h0", DropFilters: []string{"dates"}, Justification: `check "retrieval_found_data": retrieval returned no records`, Applied: true},
			{Op: "ADD", Step: "h1", NewStep: "h1_gap", SetFilters: map[string][]string{"query": {"refunds"}}, Limit: 50, Justification: "analyst asked for more data", Refused: "refine_total reached"},
		}}}, StartedAt: at, EndedAt: at}
	return &runner.Result{
		ExecutionID: "run-1", Query: "what changed last week?", Mode: "monitor", Status: runner.ResultSuccess,
		Report: "# Changes\n\n- `c1` fix payments (token glpat-SECRET123)\n",
		Answer: &sdk.WriterOutput{FinalReport: "…", SourcesUsed: []string{"c1", "c2"}, ConfidenceLevel: "High"},
		Review: &sdk.CriticOutput{Status: "PASS", Critique: "cites every record"},
		Steps: []runner.StepResult{
			{ID: "h0", Description: "Retrieve commit data from GitLab", Status: engine.StatusCompleted, Records: 2},
			{ID: "h1", Description: "Format | summary", Status: engine.StatusCompleted, Records: 2},
		},
		Records: []sdk.Record{
			{ID: "c1", Source: "git", Title: "fix payments", URL: "https://example.test/c1", Tier: 1},
			{ID: "c2", Source: "forum", Title: "rumour", Tier: 5},
		},
		Groups:  []tier.Group{{Tier: 1, Records: []string{"c1"}}, {Tier: 5, Records: []string{"c2"}}},
		Plan:    &engine.Plan{Query: "what changed last week?", Mode: "monitor"},
		History: h,
		Trace:   tr.Entries(),
	}
}

func TestGolden(t *testing.T) {
	red := redact.New("glpat-SECRET123")
	for _, tt := range []struct {
		format string
		trace  bool
		file   string
	}{
		{"text", false, "report.txt"},
		{"text", true, "report_trace.txt"},
		{"markdown", true, "report.md"},
		{"nlweb", false, "report.nlweb.json"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			var b bytes.Buffer
			require.NoError(t, Render(&b, tt.format, result(), Options{Trace: tt.trace, Redactor: red}))
			assert.NotContains(t, b.String(), "glpat-SECRET123")
			golden(t, tt.file, b.Bytes())
			var again bytes.Buffer
			require.NoError(t, Render(&again, tt.format, result(), Options{Trace: tt.trace, Redactor: red}))
			assert.Equal(t, b.String(), again.String(), "deterministic")
		})
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	assert.Equal(t, string(want), string(got))
}

func TestNLWebFieldsExactly(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Render(&b, "nlweb", result(), Options{}))
	var items []map[string]any
	require.NoError(t, json.Unmarshal(b.Bytes(), &items))
	require.Len(t, items, 1)
	var keys []string
	for k := range items[0] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	assert.Equal(t, []string{"@type", "description", "name", "schema_object", "score", "site", "siteUrl", "url"}, keys)
	it := items[0]
	assert.Equal(t, "Item", it["@type"])
	assert.Equal(t, "https://deep-research.internal/monitor/what%20changed%20last%20week%3F", it["url"])
	assert.Equal(t, "深度研究報告：what changed last week?", it["name"])
	assert.Equal(t, "Deep Research Module", it["site"])
	assert.Equal(t, "https://deep-research.internal", it["siteUrl"])
	assert.Equal(t, float64(95), it["score"])
	assert.Equal(t, map[string]any{"@type": "ResearchReport", "mode": "monitor", "iterations": float64(1),
		"sources_used": []any{"c1", "c2"}, "confidence": "High", "total_sources_analyzed": float64(2)}, it["schema_object"])
}

func TestNLWebErrorAndLongQuery(t *testing.T) {
	res := result()
	res.Query = "日本語" + string(bytes.Repeat([]byte("x"), 60))
	res.Status, res.Error, res.Answer = runner.ResultFailed, "no valid sources: mode \"strict\" kept none of 2 record(s)", nil
	items := Items(res)
	require.Len(t, items, 1)
	assert.Equal(t, "https://deep-research.internal/monitor/"+url.PathEscape("日本語"+string(bytes.Repeat([]byte("x"), 47))), items[0].URL, "50 characters of the query")
	assert.Equal(t, 0, items[0].Score)
	assert.Equal(t, res.Error, items[0].Description)
	assert.Equal(t, "ResearchError", items[0].SchemaObject.Type)
	assert.Equal(t, "Medium", items[0].SchemaObject.Confidence)
	assert.Equal(t, []string{}, items[0].SchemaObject.SourcesUsed)
}

func TestJSONDocument(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, Render(&b, "json", result(), Options{Redactor: redact.New("glpat-SECRET123")}))
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	assert.ElementsMatch(t, []string{"plan", "result", "history", "trace"}, keysOf(doc))
	assert.NotContains(t, b.String(), "glpat-SECRET123")
	var entries []trace.Entry
	require.NoError(t, json.Unmarshal(doc["trace"], &entries))
	assert.Len(t, entries, 3)
	assert.Contains(t, string(doc["history"]), `"termination": "converged"`)
}

func keysOf(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestUnknownFormat(t *testing.T) {
	err := Render(&bytes.Buffer{}, "yaml", result(), Options{})
	assert.EqualError(t, err, `unknown format "yaml" (want text, markdown, json, nlweb)`)
}

// A step that completed without doing all it was asked (a command nous
// does not execute, a truncated source) says so in the text's step list,
// not only in the JSON.
func TestTextSaysWhyAStepIsPartial(t *testing.T) {
	res := result()
	res.Status = runner.ResultPartial
	res.Steps[1].Partial = "not executed: nous does not change external systems"
	var out bytes.Buffer
	require.NoError(t, Render(&out, "text", res, Options{}))
	assert.Contains(t, out.String(), "  h1     completed Format | summary (2 record(s)) — partial: not executed: nous does not change external systems\n")
	assert.Contains(t, out.String(), "  h0     completed Retrieve commit data from GitLab (2 record(s))\n", "a whole step says nothing more")
}

func TestStatusLineSaysTheDepth(t *testing.T) {
	res := result()
	res.History.Passes = []history.Pass{
		{Number: 1, Depth: "direct", DepthChange: &history.DepthChange{From: "direct", To: "focused"}},
		{Number: 2, Depth: "focused"},
	}
	var text, md bytes.Buffer
	require.NoError(t, Render(&text, "text", res, Options{}))
	require.NoError(t, Render(&md, "markdown", res, Options{}))
	assert.Contains(t, text.String(), "Status: success (converged, 2 pass(es), depth direct → focused, mode monitor)\n")
	assert.Contains(t, md.String(), "**Status:** success (converged, 2 pass(es), depth direct → focused, mode `monitor`)")
	res.History.Passes = []history.Pass{{Number: 1}}
	text.Reset()
	require.NoError(t, Render(&text, "text", res, Options{}))
	assert.Contains(t, text.String(), "Status: success (converged, 1 pass(es), mode monitor)\n", "a run without depth levels says none")
}
