package runner

import (
	"context"
	"errors"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQueryResultsFilledAfterExecution(t *testing.T) {
	rs := loadRules(t, "")
	twoSources := func(git, issues func(context.Context, sdk.FetchRequest) ([]sdk.Record, error)) *engine.Plan {
		return buildPlan(rs, "what changed?", "discovery", nil,
			stepSpec{id: "h0", desc: "Retrieve commits", action: "retrieve", retrieve: []planSpec{{source: "git", priority: 10}, {source: "issues", priority: 5}}},
			stepSpec{id: "h1", desc: "Write", action: "agent", role: "writer", deps: []string{"h0"}},
		)
	}
	ok := func(n int) func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
		return func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return commits(n), nil }
	}
	boom := func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
		return nil, errors.New("connection refused")
	}
	tests := []struct {
		name        string
		git, issues func(context.Context, sdk.FetchRequest) ([]sdk.Record, error)
		want        []engine.QueryResult
	}{
		{"both answer", ok(3), ok(1), []engine.QueryResult{{Status: engine.QuerySucceeded, Records: 3}, {Status: engine.QuerySucceeded, Records: 1}}},
		{"one fails", ok(2), boom, []engine.QueryResult{{Status: engine.QuerySucceeded, Records: 2},
			{Status: engine.QueryFailed, Error: `source "issues": connection refused`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := twoSources(tt.git, tt.issues)
			src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){"git": tt.git, "issues": tt.issues}}
			res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
			require.NoError(t, err)
			require.Len(t, res.Plan.Retrieval.Queries, len(tt.want))
			for i, q := range res.Plan.Retrieval.Queries {
				require.NotNil(t, q.Results, q.ID)
				assert.Equal(t, tt.want[i], *q.Results, q.ID)
				assert.Nil(t, plan.Retrieval.Queries[i].Results, "the plan handed in is not changed")
			}
			assert.Equal(t, res.Plan.Retrieval.Queries, res.History.FinalResult.Queries, "the history has them too")
		})
	}
}

func TestQueryNotRunWhenItsStepIsSkipped(t *testing.T) {
	rs := loadRules(t, "")
	plan := buildPlan(rs, "q", "discovery", nil,
		stepSpec{id: "h0", desc: "Retrieve", action: "retrieve", retrieve: []planSpec{{source: "missing", priority: 10}}},
		stepSpec{id: "h1", desc: "Retrieve more", action: "retrieve", deps: []string{"h0"}, retrieve: []planSpec{{source: "git", priority: 10}}},
	)
	res, _ := New(gitSource(commits(1)), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.Len(t, res.Plan.Retrieval.Queries, 2)
	assert.Equal(t, engine.QueryFailed, res.Plan.Retrieval.Queries[0].Results.Status)
	assert.Contains(t, res.Plan.Retrieval.Queries[0].Results.Error, `no source "missing"`)
	assert.Equal(t, engine.QueryNotRun, res.Plan.Retrieval.Queries[1].Results.Status)
}

func TestQueryRunForTheNearestActivitySaysSo(t *testing.T) {
	r := newRun(New(nil, nil, Options{}), buildPlan(loadRules(t, ""), "q", "discovery", nil,
		stepSpec{id: "h0", desc: "Retrieve", action: "retrieve", retrieve: []planSpec{{source: "git"}}}))
	q := queryRun{nearest: engine.NearestBefore}
	q.add("git", 1, nil)
	r.noteQuery(0, q)
	assert.Equal(t, engine.QueryResult{Status: engine.QuerySucceeded, Records: 1, Nearest: engine.NearestBefore}, *r.executedQueries()[0].Results)
}

func TestQueryErrorIsBounded(t *testing.T) {
	var q queryRun
	for range 50 {
		q.add("git", 0, errors.New("a long and winding failure message that repeats"))
	}
	r := newRun(New(nil, nil, Options{}), buildPlan(loadRules(t, ""), "q", "discovery", nil,
		stepSpec{id: "h0", desc: "Retrieve", action: "retrieve", retrieve: []planSpec{{source: "git"}}}))
	r.noteQuery(0, q)
	got := r.executedQueries()[0].Results
	assert.Equal(t, engine.QueryFailed, got.Status)
	assert.LessOrEqual(t, len([]rune(got.Error)), maxQueryError)
}
