package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nous runs the CLI in-process with the environment cleared of tokens, so
// the default rules choose their offline plugins.
func nous(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	a := &app{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code = a.execute(args)
	return code, out.String(), errOut.String()
}

// TestPlanExamplesMatchGoldens plans every example input and compares the
// JSON with the planner's goldens (engine/testdata/plans, written by
// `go test ./engine -update`).
func TestPlanExamplesMatchGoldens(t *testing.T) {
	inputs, err := filepath.Glob("../../examples/inputs/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("../../engine/testdata/plans", filepath.Base(in)))
			require.NoError(t, err)
			code, out, stderr := nous(t, "", "plan", "--input", in)
			require.Equal(t, 0, code, stderr)
			assert.Equal(t, string(want), out)
		})
	}
}

func TestPlanSeedQueryStrings(t *testing.T) {
	code, out, _ := nous(t, `{"intents":[{"type":"query_commits","confidence":0.9}],"entities":{"projects":["proj1","proj2"],"dates":["last week"]}}`,
		"plan", "--input", "-")
	require.Equal(t, 0, code)
	var plan struct {
		Retrieval struct {
			Queries []struct {
				ID          string `json:"id"`
				QueryString string `json:"query_string"`
			} `json:"queries"`
		} `json:"retrieval"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &plan))
	require.Len(t, plan.Retrieval.Queries, 1)
	assert.Equal(t, "plan0_query", plan.Retrieval.Queries[0].ID)
	assert.Equal(t, "Retrieve commit data from GitLab projects:proj1,proj2 dates:last week", plan.Retrieval.Queries[0].QueryString)
}

func TestPlanFormats(t *testing.T) {
	tests := []struct {
		format string
		want   []string
	}{
		{"json", []string{`"query": "how many commits in project abc?"`, `"query_string": "Retrieve commit data from GitLab projects:abc"`}},
		{"text", []string{"query: how many commits in project abc?", "h5   Calculate statistics and trends  [after h4; stats; query_analytics.stats]", "query: Retrieve commit data from GitLab projects:abc"}},
		{"dot", []string{"digraph plan {", "h0 -> h1;", "h0 -> plan0 [style=dashed];"}},
		{"mermaid", []string{"flowchart LR", "h0 --> h1", "h0 -.-> plan0"}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			code, out, stderr := nous(t, "", "plan", "-q", "how many commits in project abc?", "--format", tt.format)
			require.Equal(t, 0, code, stderr)
			for _, w := range tt.want {
				assert.Contains(t, out, w)
			}
		})
	}
}

func TestPlanShowsItsValidation(t *testing.T) {
	q := "what is the status of the project?"
	code, out, stderr := nous(t, "", "plan", q, "--format", "text")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "plan validation:\n  warning retrieval_dropped: plan1 (Retrieve open issues for health status) removed: no configured source serves issue records")
	assert.Contains(t, out, "warning step_unserved: h0 (Check system health and status) has nothing to retrieve: plan1 removed")
	assert.Contains(t, out, `refined: REMOVE plan1: no configured source serves issue records; source "youtrack" is not configured: set YOUTRACK_URL`)
	assert.NotContains(t, out, "  plan1  priority", "the refined plan no longer retrieves from it")

	code, out, stderr = nous(t, "", "plan", q)
	require.Equal(t, 0, code, stderr)
	var plan engine.Plan
	require.NoError(t, json.Unmarshal([]byte(out), &plan))
	require.NotNil(t, plan.Validation)
	require.Len(t, plan.Validation.Refinements, 1)
	ref := plan.Validation.Refinements[0]
	assert.Equal(t, engine.OpRemove, ref.Op)
	assert.Equal(t, "plan1", ref.Target)
	assert.Equal(t, "h0", ref.Step)
	assert.Equal(t, []string{"youtrack"}, ref.Plan.Sources, "the removed retrieval as it was")
	assert.Contains(t, plan.Validation.Unserved["h0"], `source "youtrack" is not configured`)
}

func TestPlanModeFlag(t *testing.T) {
	code, out, _ := nous(t, "", "plan", "commits this week", "--mode", "strict")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"mode": "strict"`)
}

func TestPlanBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte("{\n  \"intents\": [\n    {\"type\": \"query_commits\", \"confidence\": 0.9, \"weight\": 2}\n  ]\n}\n"), 0o644))
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"unknown field names file, position and field", "", []string{"plan", "--input", bad}, bad + ":3:50: intents[0].weight: unknown field"},
		{"stdin syntax error", "{\"query\": }", []string{"plan", "--input", "-"}, "<stdin>:1:11: invalid character '}'"},
		{"missing file", "", []string{"plan", "--input", filepath.Join(dir, "none.json")}, "none.json: no such file"},
		{"directory", "", []string{"plan", "--input", dir}, "nous: plan: read " + dir + ": is a directory"},
		{"no question", "", []string{"plan"}, "give a question"},
		{"both question and input", "", []string{"plan", "-q", "x", "-i", bad}, "not both"},
		{"unknown format", "", []string{"plan", "-q", "x", "--format", "yaml"}, `--format "yaml"`},
		{"unknown mode", "", []string{"plan", "-q", "x", "--mode", "lenient"}, `mode "lenient" is not defined (modes: strict, monitor, discovery)`},
		{"unknown mode in the input", `{"query": "x", "mode": "lenient"}`, []string{"plan", "-i", "-"}, `<stdin>: mode "lenient" is not defined`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := nous(t, tt.stdin, tt.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, stderr, tt.want)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
		})
	}
}

func TestPlanErrorDiagnosticsExitOne(t *testing.T) {
	code, out, _ := nous(t, `{}`, "plan", "-i", "-")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, `"code": "no_intents"`)
}

// TestPlanPicksUpNewIntentTemplate adds an intent template to a rules
// directory and plans it with the same binary: no rebuild involved.
func TestPlanPicksUpNewIntentTemplate(t *testing.T) {
	dir := t.TempDir()
	defaults, err := filepath.Glob("../../examples/rules/default/*.hcl")
	require.NoError(t, err)
	for _, f := range defaults {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644))
	}
	question := "which deployments failed last week?"
	code, out, stderr := nous(t, "", "--rules", dir, "plan", question)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, out, "query_deployments")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "deployments.hcl"), []byte(`
intent "query_deployments" {
  detect {
    when       = "query matches '(?i)\\\\bdeploy(ment)?s?\\\\b'"
    confidence = 0.95
  }
  hypothesis "retrieve" {
    description = "Retrieve deployment pipelines from GitLab"
    action      = "retrieve"
  }
  hypothesis "failures" {
    description = "Find failed deployments"
    action      = "filter"
  }
  retrieve "pipelines" {
    description = "Retrieve pipelines from GitLab"
    source      = "gitlab"
    priority    = 10
    filters     = ["dates"]
  }
}
`), 0o644))
	var stdout, stderrBuf bytes.Buffer
	code = run([]string{"--rules", dir, "plan", question, "--format", "text"}, strings.NewReader(""), &stdout, &stderrBuf)
	require.Equal(t, 0, code, stderrBuf.String())
	out = stdout.String()
	assert.Contains(t, out, "query_deployments  0.95")
	assert.Contains(t, out, "h0   Retrieve deployment pipelines from GitLab")
	assert.Contains(t, out, "h1   Find failed deployments  [after h0; filter; query_deployments.failures]")
	assert.Contains(t, out, "query: Retrieve pipelines from GitLab dates:last week")
}

func TestPlanMasksSecretsReadByTheRules(t *testing.T) {
	rulesFile := filepath.Join(t.TempDir(), "nous.hcl")
	require.NoError(t, os.WriteFile(rulesFile, []byte(`
intent "fallback" {
  hypothesis "retrieve" {
    description = "Retrieve with ${env("DEPLOY_TOKEN", "")}"
  }
}
`), 0o644))
	for _, format := range []string{"json", "text", "dot", "mermaid"} {
		var out, errOut bytes.Buffer
		a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(name string) string {
			if name == "DEPLOY_TOKEN" {
				return "tok-9f8e7d"
			}
			return ""
		}}
		code := a.execute([]string{"--rules", rulesFile, "plan", "--format", format, "-q", "anything"})
		require.Equal(t, 0, code, errOut.String())
		assert.NotContains(t, out.String(), "tok-9f8e7d", format)
		assert.Contains(t, out.String(), "Retrieve with [REDACTED]", format)
	}
}
