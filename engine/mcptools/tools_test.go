package mcptools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/mcptools"
	"github.com/nous-dev/nous/engine/render"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/examples"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolsAreListedWithSchemas(t *testing.T) {
	cs := connect(t, newService(t, newFixtures(t)), nil)
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	byName := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	tests := []struct {
		tool     string
		required []string // input properties
		output   string   // an output property
	}{
		{"ask", []string{"query"}, "result"},
		{"plan", []string{"query"}, "plan"},
		{"fetch", []string{"source"}, "records"},
		{"lint", []string{"files"}, "diagnostics"},
	}
	require.Len(t, byName, len(tests))
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			tool := byName[tt.tool]
			require.NotNil(t, tool)
			assert.NotEmpty(t, tool.Description)
			var in, out struct {
				Type       string
				Required   []string
				Properties map[string]struct{ Description string }
			}
			remarshal(t, tool.InputSchema, &in)
			remarshal(t, tool.OutputSchema, &out)
			assert.Equal(t, "object", in.Type)
			assert.Equal(t, tt.required, in.Required)
			for name, p := range in.Properties {
				assert.NotEmpty(t, p.Description, "input %s has no description", name)
			}
			require.Contains(t, out.Properties, tt.output)
			assert.NotEmpty(t, out.Properties[tt.output].Description)
		})
	}
}

// defaultRuleFiles are the embedded default rules as the lint tool takes them.
func defaultRuleFiles(t testing.TB) []map[string]any {
	var files []map[string]any
	require.NoError(t, fs.WalkDir(examples.DefaultRules(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(examples.DefaultRules(), p)
		files = append(files, map[string]any{"name": p, "content": string(data)})
		return err
	}))
	require.NotEmpty(t, files)
	return files
}

// Bounds of waiting for what happens in another goroutine.
const (
	testTimeout = 10 * time.Second
	pollEvery   = 10 * time.Millisecond
)

func remarshal(t testing.TB, from, to any) {
	t.Helper()
	data, err := json.Marshal(from)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, to))
}

func TestAskAnswersAsTheServiceWithProgress(t *testing.T) {
	srv := newService(t, newFixtures(t))
	var progress progressLog
	cs := connect(t, srv, &progress)
	const query = "which issues are open?"
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask",
		Arguments: map[string]any{"query": query}, Meta: mcp.Meta{"progressToken": "p1"}})
	require.NoError(t, err)
	require.False(t, res.IsError, textOf(t, res))

	want, err := srv.Ask(context.Background(), server.AskRequest{Query: query, Format: "markdown"}, server.Watch{})
	require.NoError(t, err)
	assert.Equal(t, string(want.Output), textOf(t, res), "the text is the Markdown report")
	var out mcptools.AskOutput
	structured(t, res, &out)
	assert.NotEmpty(t, out.RunID)
	assert.Equal(t, want.Run.Status, out.Status)
	var doc struct{ Result runner.Result }
	require.NoError(t, json.Unmarshal(out.Result, &doc))
	assert.Equal(t, want.Result.Report, doc.Result.Report, "the structured result is nous ask --format json")

	msgs, counted := progress.messages()
	assert.True(t, counted, "progress counts up")
	require.NotEmpty(t, msgs)
	assert.Equal(t, "run "+out.RunID+" started", msgs[0])
	assert.Contains(t, msgs, "pass 1")
	assert.Regexp(t, `^run (success|partial)`, msgs[len(msgs)-1], "the last event is the run's end")
}

func TestAskWithoutProgressTokenSendsNone(t *testing.T) {
	var progress progressLog
	cs := connect(t, newService(t, newFixtures(t)), &progress)
	res := call(t, cs, "ask", map[string]any{"query": "which issues are open?"})
	require.False(t, res.IsError, textOf(t, res))
	msgs, _ := progress.messages()
	assert.Empty(t, msgs)
}

func TestCancellingAskEndsTheRunCancelled(t *testing.T) {
	p := newFixtures(t)
	p.gate = make(chan struct{}) // never opens: the run waits in its first fetch
	srv := newService(t, p)
	cs := connect(t, srv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	called := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"query": "which issues are open?"}})
		called <- err
	}()
	<-p.fetched
	cancel()
	require.ErrorIs(t, <-called, context.Canceled)

	// The run ends cancelled, with its partial history, in the service's store.
	h := srv.Handler()
	require.Eventually(t, func() bool {
		runs := listRuns(t, h)
		return len(runs) == 1 && runs[0].Status == runner.ResultCancelled
	}, testTimeout, pollEvery)
}

func listRuns(t testing.TB, h http.Handler) []server.Run {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/runs", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	var body struct{ Runs []server.Run }
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
	return body.Runs
}

func TestPlanIsThePlanOfTheService(t *testing.T) {
	srv := newService(t, newFixtures(t))
	cs := connect(t, srv, nil)
	for _, query := range []string{"what changed last week?", "who changed hclsyntax the most?", "which issues are open?"} {
		t.Run(query, func(t *testing.T) {
			res := call(t, cs, "plan", map[string]any{"query": query})
			require.False(t, res.IsError, textOf(t, res))
			want, err := srv.Plan(context.Background(), engine.Request{Query: query})
			require.NoError(t, err)
			var out mcptools.PlanOutput
			structured(t, res, &out)
			assert.JSONEq(t, string(want), string(out.Plan))

			// The text is what `nous plan` prints for the same plan.
			var p engine.Plan
			require.NoError(t, json.Unmarshal(want, &p))
			var text bytes.Buffer
			require.NoError(t, render.Write(&text, &p, "text", nil))
			assert.Equal(t, text.String(), textOf(t, res))
		})
	}
}

func TestFetchReadsASourceOfTheRules(t *testing.T) {
	cs := connect(t, newService(t, newFixtures(t)), nil)
	res := call(t, cs, "fetch", map[string]any{"source": "youtrack", "limit": 3})
	require.False(t, res.IsError, textOf(t, res))
	var out mcptools.FetchOutput
	structured(t, res, &out)
	assert.Equal(t, "youtrack", out.Source)
	require.Len(t, out.Records, 3)
	assert.Contains(t, textOf(t, res), "3 record(s) from youtrack\n- ")
	for _, r := range out.Records {
		assert.Contains(t, textOf(t, res), r.ID)
	}
}

func TestLintReportsPositionedDiagnostics(t *testing.T) {
	cs := connect(t, newService(t, newFixtures(t)), nil)
	tests := []struct {
		name   string
		files  []map[string]any
		errors int
		want   mcptools.LintDiagnostic // the first diagnostic's file, line, column and check
	}{
		{"a syntax error", []map[string]any{{"name": "bad.hcl", "content": "intent \"x\" {\n  description = \n}\n"}},
			1, mcptools.LintDiagnostic{File: "bad.hcl", Line: 2, Column: 17, Severity: "error", Check: "syntax"}},
		{"a bad value in the second of two files", []map[string]any{
			{"name": "a.hcl", "content": "# nothing yet\n"},
			{"name": "b.hcl", "content": "# a mode\nmode \"m\" {\n  on_empty = \"nowhere\"\n}\n"}},
			1, mcptools.LintDiagnostic{File: "b.hcl", Line: 3, Column: 14, Severity: "error", Check: "invalid-value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, cs, "lint", map[string]any{"files": tt.files})
			require.False(t, res.IsError, textOf(t, res))
			var out mcptools.LintOutput
			structured(t, res, &out)
			require.NotEmpty(t, out.Diagnostics, textOf(t, res))
			assert.GreaterOrEqual(t, out.Errors, tt.errors)
			d := out.Diagnostics[0]
			assert.Equal(t, tt.want.File, d.File)
			assert.Equal(t, tt.want.Line, d.Line)
			assert.Equal(t, tt.want.Column, d.Column)
			assert.Equal(t, tt.want.Severity, d.Severity)
			assert.Equal(t, tt.want.Check, d.Check)
			assert.Contains(t, textOf(t, res), fmt.Sprintf("on %s line %d", d.File, d.Line), "the text is nous lint's report")
		})
	}
}

func TestLintOfTheDefaultRulesIsClean(t *testing.T) {
	cs := connect(t, newService(t, newFixtures(t)), nil)
	res := call(t, cs, "lint", map[string]any{"files": defaultRuleFiles(t)})
	require.False(t, res.IsError, textOf(t, res))
	var out mcptools.LintOutput
	structured(t, res, &out)
	assert.Zero(t, out.Errors, textOf(t, res))
}

// TestBadInputIsAToolErrorNamingTheField: the client's model reads the
// error and can correct the call.
func TestBadInputIsAToolErrorNamingTheField(t *testing.T) {
	cs := connect(t, newService(t, newFixtures(t)), nil)
	tests := []struct {
		tool string
		args map[string]any
		want []string // in the error text
	}{
		{"ask", map[string]any{}, []string{"query"}},
		{"ask", map[string]any{"query": 5}, []string{"query"}},
		{"ask", map[string]any{"query": "  "}, []string{"query", "empty"}},
		{"ask", map[string]any{"query": "what changed?", "mode": "nope"}, []string{"mode", "strict"}},
		{"ask", map[string]any{"query": "what changed?", "extra": true}, []string{"extra"}},
		{"plan", map[string]any{"query": ""}, []string{"query"}},
		{"plan", map[string]any{"query": "what changed?", "mode": "nope"}, []string{"mode"}},
		{"fetch", map[string]any{"source": "nowhere"}, []string{"source", "gitlab", "youtrack"}},
		{"fetch", map[string]any{"source": "youtrack", "limit": 1000}, []string{"limit", "200"}},
		{"fetch", map[string]any{"source": "youtrack", "dates": "someday"}, []string{"dates"}},
		{"fetch", map[string]any{"source": "youtrack", "filters": map[string]any{"path": []string{""}}}, []string{"filters.path", "empty"}},
		{"lint", map[string]any{"files": []any{}}, []string{"files"}},
		{"lint", map[string]any{"files": []any{map[string]any{"name": "x.txt", "content": ""}}}, []string{"files[0].name", ".hcl"}},
		{"lint", map[string]any{"files": []any{map[string]any{"name": "../x.hcl", "content": ""}}}, []string{"files[0].name"}},
		{"lint", map[string]any{"files": []any{map[string]any{"name": "a.hcl", "content": ""}, map[string]any{"name": "a.hcl", "content": ""}}}, []string{"files[1].name", "twice"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.want[0], func(t *testing.T) {
			res := call(t, cs, tt.tool, tt.args)
			require.True(t, res.IsError)
			for _, w := range tt.want {
				assert.Contains(t, textOf(t, res), w)
			}
		})
	}
}
