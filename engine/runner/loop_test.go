package runner

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func gitSource(recs []sdk.Record) *fakeSources {
	return &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return recs, nil },
	}}
}

func TestChainConverges(t *testing.T) {
	rs := loadRules(t, "")
	src, agents := gitSource(commits(3)), standardAgents()
	res, err := New(src, agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)

	assert.Equal(t, ResultSuccess, res.Status)
	assert.Equal(t, history.Converged, res.History.Termination)
	require.Len(t, res.History.Passes, 1)
	assert.Contains(t, res.Report, "records: c1,c2,c3")
	assert.Contains(t, res.Report, "draft: c1 c2 c3")
	assert.Len(t, res.Records, 3)

	reqs := src.requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, "Retrieve commit data from GitLab projects:acme/pay dates:last week", reqs[0].Req.Query)
	assert.Equal(t, map[string][]string{"projects": {"acme/pay"}}, reqs[0].Req.Filters, "dates travel as since/until")
	assert.Equal(t, time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), reqs[0].Req.Since)
	assert.Equal(t, time.Date(2026, 11, 9, 0, 0, 0, 0, time.UTC), reqs[0].Req.Until)

	w := agents.requests(sdk.RoleWriter)
	require.Len(t, w, 1)
	assert.Equal(t, `Write the report for what changed in payments last week? (discovery, pass 1, 3 records).`, w[0].Instructions, "the prompt block is the template")
	assert.JSONEq(t, string(roleSchemas[sdk.RoleWriter].schemaJSON()), string(w[0].Schema))
	assert.Empty(t, res.Pending, "every commitment fulfilled")
	stages := map[trace.Stage]int{}
	for _, e := range res.Trace {
		stages[e.Stage]++
	}
	assert.Equal(t, 1, stages[trace.Planning])
	assert.Equal(t, 3, stages[trace.Execution])
	assert.Equal(t, 1, stages[trace.Finalization])
	assert.Equal(t, 3, res.History.Statistics.AgentCalls, "analyst, critic, writer")
}

func TestParallelStepsOverlap(t *testing.T) {
	rs := loadRules(t, "")
	src := &fakeSources{gate: newGate(2), fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return commits(1), nil },
		"forum": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
			return []sdk.Record{{ID: "p1", Source: "forum"}}, nil
		},
	}}
	plan := buildPlan(rs, "what is the status?", "discovery", nil,
		stepSpec{id: "h0", desc: "Check system health and status", action: "retrieve", retrieve: []planSpec{{source: "git", priority: 8}}},
		stepSpec{id: "h1", desc: "Gather recent events and changes", action: "retrieve", retrieve: []planSpec{{source: "forum", priority: 8}}},
		stepSpec{id: "h2", desc: "Synthesize overall status report", action: "agent", role: "writer", deps: []string{"h0", "h1"}},
	)
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	runs := map[string]history.StepRun{}
	for _, s := range res.History.Passes[0].Steps {
		runs[s.ID] = s
	}
	h0, h1, h2 := runs["h0"], runs["h1"], runs["h2"]
	assert.Less(t, h0.StartSeq, h1.EndSeq, "h0 started before h1 ended")
	assert.Less(t, h1.StartSeq, h0.EndSeq, "h1 started before h0 ended")
	assert.Greater(t, h2.StartSeq, max(h0.EndSeq, h1.EndSeq), "h2 waits for both")
	assert.Equal(t, []string{"h0", "h1", "h2"}, []string{res.History.Passes[0].Steps[0].ID, res.History.Passes[0].Steps[1].ID, res.History.Passes[0].Steps[2].ID}, "history in launch order")
	assert.Contains(t, res.Report, "records: c1,p1")
}

// TestIndependentChainsOverlap runs two chains of retrieval, a step
// without I/O and a writer: the writers must be in flight together, though
// each chain's light step launches behind the other chain's retrieval.
func TestIndependentChainsOverlap(t *testing.T) {
	rs := loadRules(t, "")
	agents, writers := standardAgents(), newGate(2)
	write := agents.roles[sdk.RoleWriter]
	agents.roles[sdk.RoleWriter] = func(req sdk.InvokeRequest) (string, error) { writers.wait(); return write(req) }
	plan, src := twoChains(rs)
	res, err := New(src, agents, Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	runs := map[string]history.StepRun{}
	for _, s := range res.History.Passes[0].Steps {
		runs[s.ID] = s
	}
	h2, h5 := runs["h2"], runs["h5"]
	assert.Less(t, h2.StartSeq, h5.EndSeq, "h2 started before h5 ended")
	assert.Less(t, h5.StartSeq, h2.EndSeq, "h5 started before h2 ended")
}

func TestWorkersBound(t *testing.T) {
	rs := loadRules(t, "loop {\n  workers = 1\n}\n")
	var inFlight, most atomic.Int32
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(5 * time.Millisecond)
			return commits(1), nil
		},
	}}
	plan := buildPlan(rs, "q", "discovery", nil,
		stepSpec{id: "h0", desc: "a", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
		stepSpec{id: "h1", desc: "b", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
		stepSpec{id: "h2", desc: "c", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
	)
	_, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Equal(t, int32(1), most.Load())
}

func TestCancellationKeepsPartialHistory(t *testing.T) {
	rs := loadRules(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(ctx context.Context, _ sdk.FetchRequest) ([]sdk.Record, error) {
			cancel() // Ctrl-C while the fetch runs
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}}
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(ctx, commitChain(rs, "discovery"))
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled))
	require.NotNil(t, res)
	assert.Equal(t, ResultCancelled, res.Status)
	assert.Equal(t, history.Cancelled, res.History.Termination)
	require.Len(t, res.History.Passes, 1)
	require.Len(t, res.History.Passes[0].Steps, 3)
	assert.Equal(t, engine.StatusFailed, res.History.Passes[0].Steps[0].Status)
	assert.Contains(t, res.History.Passes[0].Steps[0].Error, "context canceled")
	assert.Equal(t, engine.StatusSkipped, res.Steps[2].Status)
}

func TestDeterministic(t *testing.T) {
	rs := loadRules(t, retrievalCheck)
	run := func() []byte {
		src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
			"git":   func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return commits(3), nil },
			"forum": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return []sdk.Record{{ID: "p1"}}, nil },
		}}
		plan := buildPlan(rs, "status?", "discovery", nil,
			stepSpec{id: "h0", desc: "a", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
			stepSpec{id: "h1", desc: "b", action: "retrieve", retrieve: []planSpec{{source: "forum"}}},
			stepSpec{id: "h2", desc: "c", action: "stats", deps: []string{"h0", "h1"}},
			stepSpec{id: "h3", desc: "d", action: "agent", role: "writer", deps: []string{"h2"}},
		)
		res, err := New(src, standardAgents(), Options{Clock: fixedClock, ExecutionID: "run-1"}).Run(context.Background(), plan)
		require.NoError(t, err)
		b, err := json.Marshal(struct {
			R *Result
			H *history.History
			T []trace.Entry
		}{res, res.History, res.Trace})
		require.NoError(t, err)
		return b
	}
	first := run()
	for range 5 {
		assert.Equal(t, string(first), string(run()))
	}
}

func TestUnknownActionFails(t *testing.T) {
	rs := loadRules(t, "")
	plan := buildPlan(rs, "q", "discovery", nil, stepSpec{id: "h0", desc: "x", action: "teleport"})
	res, err := New(gitSource(nil), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Contains(t, res.Steps[0].Error, `unknown action "teleport"`)
	assert.Equal(t, ResultFailed, res.Status)
}

func TestUnrunnableAndEmptyPlans(t *testing.T) {
	rs := loadRules(t, "")
	cyclic := buildPlan(rs, "q", "discovery", nil,
		stepSpec{id: "h0", desc: "a", deps: []string{"h1"}},
		stepSpec{id: "h1", desc: "b", deps: []string{"h0"}},
	)
	res, err := New(gitSource(nil), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), cyclic)
	require.NoError(t, err)
	assert.Equal(t, history.Stalled, res.History.Termination, "a cycle the planner did not break cannot hang the loop")
	assert.Equal(t, engine.StatusSkipped, res.Steps[0].Status)
	assert.Equal(t, "not run: loop ended (stalled)", res.Steps[0].Error)

	res, err = New(gitSource(nil), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), buildPlan(rs, "hello", "discovery", nil))
	require.NoError(t, err)
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Equal(t, history.Converged, res.History.Termination)
	assert.Equal(t, "# hello\n", res.Report)
}

func TestUnrunnablePlanFailsWithoutPanic(t *testing.T) {
	noPolicy := buildPlan(loadRules(t, ""), "q", "discovery", nil, stepSpec{id: "h0", desc: "a"})
	noPolicy.Policy = nil
	noLimits := buildPlan(loadRules(t, ""), "q", "discovery", nil, stepSpec{id: "h0", desc: "a"})
	noLimits.Policy = &engine.Policy{}
	tests := []struct {
		name string
		plan *engine.Plan
		want string
	}{
		{"no plan", nil, "runner: no plan to run"},
		{"a hand-built plan without a policy", noPolicy, "runner: the plan has no policy; plans come from engine.Planner"},
		{"a hand-built policy without limits", noLimits,
			"runner: the plan's policy leaves a loop limit unset (max passes 0, ttl 0s, workers 0, max records 0; each must be positive)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New(nil, nil, Options{}).Run(context.Background(), tt.plan)
			require.EqualError(t, err, tt.want)
			require.NotNil(t, res, "the result is never nil")
			assert.Equal(t, ResultFailed, res.Status)
			assert.Equal(t, tt.want, res.Error)
			assert.Empty(t, res.Steps)
		})
	}
}

func TestBadPlanIndexFailsStep(t *testing.T) {
	rs := loadRules(t, "")
	plan := buildPlan(rs, "q", "discovery", nil, stepSpec{id: "h0", desc: "r", action: "retrieve"})
	plan.Steps[0].Plans = []int{7}
	res, err := New(gitSource(commits(1)), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Equal(t, engine.StatusFailed, res.Steps[0].Status)
	assert.Equal(t, "retrieval plan index 7 out of range", res.Steps[0].Error)
}
