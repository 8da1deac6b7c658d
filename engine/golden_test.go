package engine_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/render"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGoldenPlans plans every example input with the default rules and
// compares the JSON with testdata/plans/NAME.json (the same bytes `nous plan
// --input` prints). Run with -update after an intended change, and review
// the diff: the seed tables in seeds_test.go pin the documents' values.
func TestGoldenPlans(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "examples", "inputs", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, inputs)
	p := defaultPlanner(t)
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			pl := plan(t, p, readInput(t, name))
			engine.ValidatePlan(pl, engine.SourceFactsFromRules(p.Rules())) // as nous plan shows it
			require.NoError(t, render.JSON(&got, pl))
			golden := filepath.Join("testdata", "plans", name)
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, got.Bytes(), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), got.String())
		})
	}
}

// TestNoStaleGoldens keeps testdata/plans in step with the example inputs.
func TestNoStaleGoldens(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "examples", "inputs", "*.json"))
	require.NoError(t, err)
	goldens, err := filepath.Glob(filepath.Join("testdata", "plans", "*.json"))
	require.NoError(t, err)
	names := func(paths []string) []string {
		out := make([]string, len(paths))
		for i, p := range paths {
			out[i] = filepath.Base(p)
		}
		return out
	}
	assert.Equal(t, names(inputs), names(goldens))
}
