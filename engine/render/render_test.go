package render_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/render"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func planInput(t testing.TB, name string) *engine.Plan {
	t.Helper()
	rs, diags := rules.LoadFS(examples.DefaultRules(), rules.WithEnv(map[string]string{}))
	require.False(t, diags.HasErrors(), "%v", diags)
	f, err := os.Open(filepath.Join("..", "..", "examples", "inputs", name+".json"))
	require.NoError(t, err)
	defer f.Close()
	req, err := engine.DecodeRequest(f)
	require.NoError(t, err)
	p, err := engine.NewPlanner(rs).Plan(context.Background(), req)
	require.NoError(t, err)
	return p
}

func TestGolden(t *testing.T) {
	ext := map[string]string{"json": "json", "text": "txt", "dot": "dot", "mermaid": "mmd"}
	for _, input := range []string{"status", "query", "low_confidence", "unknown_intent"} {
		p := planInput(t, input)
		for _, format := range render.Formats {
			name := input + "." + ext[format]
			t.Run(name, func(t *testing.T) {
				var got bytes.Buffer
				require.NoError(t, render.Write(&got, p, format, nil))
				golden := filepath.Join("testdata", name)
				if *update {
					require.NoError(t, os.MkdirAll("testdata", 0o755))
					require.NoError(t, os.WriteFile(golden, got.Bytes(), 0o644))
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err)
				assert.Equal(t, string(want), got.String())

				var again bytes.Buffer
				require.NoError(t, render.Write(&again, p, format, nil))
				assert.Equal(t, got.String(), again.String(), "rendering is deterministic")
			})
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	err := render.Write(&bytes.Buffer{}, &engine.Plan{}, "yaml", nil)
	assert.ErrorContains(t, err, `unknown format "yaml" (want json, text, dot, mermaid)`)
}

// quoted is a plan whose descriptions carry characters each diagram syntax
// must escape.
var quoted = &engine.Plan{
	Reasoning: engine.Reasoning{
		Intents: []engine.Intent{{Type: "i", Confidence: 1}},
		Hypotheses: []engine.Hypothesis{
			{ID: "h0", Description: `say "hi" <now> \ back`, Dependencies: []string{}, Intent: "i", Name: "a"},
			{ID: "h1", Description: "two\nlines", Dependencies: []string{"h0"}, Intent: "i", Name: "b"},
		},
	},
}

func TestDiagramEscaping(t *testing.T) {
	var dot, mmd bytes.Buffer
	require.NoError(t, render.DOT(&dot, quoted))
	require.NoError(t, render.Mermaid(&mmd, quoted))
	assert.Contains(t, dot.String(), `h0 [label="h0\nsay \"hi\" <now> \\ back"];`)
	assert.Contains(t, dot.String(), `h1 [label="h1\ntwo\nlines"];`)
	assert.Contains(t, mmd.String(), `h0["h0: say #quot;hi#quot; #lt;now#gt; \ back"]`)
	assert.Contains(t, mmd.String(), `h1["h1: two lines"]`)
}

func TestLevels(t *testing.T) {
	levels, err := render.Levels(planInput(t, "all_intents"))
	require.NoError(t, err)
	assert.Equal(t, [][]string{
		{"h0", "h3", "h6", "h10", "h11", "h13", "h16", "h19"},
		{"h1", "h4", "h7", "h12", "h14", "h17"},
		{"h2", "h5", "h8", "h15", "h18"},
		{"h9"},
	}, levels)
}

func TestTextShowsDiagnostics(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, render.Text(&out, planInput(t, "low_confidence")))
	assert.True(t, strings.HasSuffix(out.String(),
		"diagnostics:\n  info low_confidence: intent \"query_issues\" skipped: confidence 0.20 is below min_confidence 0.30\n"), out.String())
}

func TestTextShowsAmbiguities(t *testing.T) {
	p := &engine.Plan{Ambiguities: []engine.Ambiguity{
		{Type: engine.AmbiguityMissingEntity, Entity: "targets", Message: "command_action needs targets, and the question names none", Blocking: true},
		{Type: engine.AmbiguityMultipleMatches, Entity: "paths", Message: `"parser.go" matches 2 paths in gitlab`, Candidates: []string{"json/parser.go", "hclsyntax/parser.go"}},
	}}
	var out bytes.Buffer
	require.NoError(t, render.Text(&out, p))
	assert.Contains(t, out.String(), "ambiguities:\n"+
		"  missing_entity (asked back): command_action needs targets, and the question names none\n"+
		"  multiple_matches (said in the answer): \"parser.go\" matches 2 paths in gitlab [json/parser.go; hclsyntax/parser.go]\n")
}
