package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/require"
)

// defaultPlanner compiles the embedded default rules.
func defaultPlanner(t testing.TB) *engine.Planner {
	t.Helper()
	rs, diags := rules.LoadFS(examples.DefaultRules(), rules.WithEnv(map[string]string{}))
	require.False(t, diags.HasErrors(), "default rules: %v", diags)
	return engine.NewPlanner(rs)
}

// parsePlanner compiles rules given as HCL text.
func parsePlanner(t testing.TB, src string) *engine.Planner {
	t.Helper()
	rs, diags := rules.Parse("test.hcl", []byte(src))
	require.False(t, diags.HasErrors(), "rules: %v", diags)
	return engine.NewPlanner(rs)
}

// readInput decodes one of the example inputs.
func readInput(t testing.TB, name string) engine.Request {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "examples", "inputs", name))
	require.NoError(t, err)
	defer f.Close()
	req, err := engine.DecodeRequest(f)
	require.NoError(t, err)
	return req
}

func plan(t testing.TB, p *engine.Planner, req engine.Request) *engine.Plan {
	t.Helper()
	out, err := p.Plan(context.Background(), req)
	require.NoError(t, err)
	return out
}

// hyp is the documents' view of a hypothesis.
type hyp struct {
	ID, Description string
	Dependencies    []string
}

func hypotheses(p *engine.Plan) []hyp {
	out := []hyp{}
	for _, h := range p.Reasoning.Hypotheses {
		out = append(out, hyp{h.ID, h.Description, h.Dependencies})
	}
	return out
}

// planView is the documents' view of a retrieval plan and its query.
type planView struct {
	ID, Description string
	Sources         []string
	Filters         map[string][]string
	Priority        int
	Query           string
}

func plans(p *engine.Plan) []planView {
	out := []planView{}
	for i, pl := range p.Retrieval.Plans {
		filters := map[string][]string{}
		for _, f := range pl.Filters {
			filters[f.Key] = f.Values
		}
		out = append(out, planView{pl.ID, pl.Description, pl.Sources, filters, pl.Priority, p.Retrieval.Queries[i].QueryString})
	}
	return out
}

func codes(p *engine.Plan) []string {
	out := []string{}
	for _, d := range p.Diagnostics {
		out = append(out, string(d.Severity)+":"+d.Code)
	}
	return out
}
