package exec

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/redact"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/rules"
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

func TestCriticRejectThenRevise(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	var reviews atomic.Int32
	agents.roles[sdk.RoleCritic] = func(req sdk.InvokeRequest) (string, error) {
		if reviews.Add(1) == 1 {
			return mustJSON(sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "no dates", Suggestions: []string{"add the time span"}, LogicalGaps: []string{"period"}}), nil
		}
		return mustJSON(sdk.CriticOutput{Status: sdk.VerdictWarn, Critique: "ok now", Suggestions: []string{}, LogicalGaps: []string{}}), nil
	}
	res, err := New(gitSource(commits(2)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)

	require.Len(t, res.History.Passes, 2)
	p1 := res.History.Passes[0]
	assert.False(t, p1.Convergence.Converged)
	assert.Equal(t, []string{"h2"}, p1.Convergence.NeedRefine)
	require.Len(t, p1.Refinements, 1)
	assert.Equal(t, history.Refinement{Op: OpModify, Step: "h2", Justification: "critic rejected the draft: no dates", Applied: true}, p1.Refinements[0])
	assert.True(t, res.History.Passes[1].Convergence.Converged)
	assert.Equal(t, history.Converged, res.History.Termination)

	analyst := agents.requests(sdk.RoleAnalyst)
	require.Len(t, analyst, 2)
	var revise sdk.AnalystInput
	require.NoError(t, json.Unmarshal(analyst[1].Input, &revise))
	require.NotNil(t, revise.Review, "the second pass revises")
	assert.Equal(t, sdk.VerdictReject, revise.Review.Status)
	assert.Equal(t, "draft: c1 c2", revise.Draft)
	assert.Contains(t, res.Report, "(revised: no dates)")
	assert.Equal(t, "WARN", res.Review.Status)
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Contains(t, res.History.Passes[1].Steps[0].ID, "h2", "only the rejected step runs again")
	assert.Len(t, res.History.Passes[1].Steps, 1)

	var corrections []string
	for _, e := range res.Trace {
		corrections = append(corrections, e.Corrections...)
	}
	assert.Contains(t, corrections, "add the time span")
}

func TestRejectEveryPassStillComposes(t *testing.T) {
	rs := loadRules(t, "loop {\n  max_passes = 2\n}\n")
	agents := standardAgents()
	agents.roles[sdk.RoleCritic] = func(req sdk.InvokeRequest) (string, error) {
		return mustJSON(sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "never good", Suggestions: []string{}, LogicalGaps: []string{}}), nil
	}
	res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, history.MaxPasses, res.History.Termination)
	assert.Len(t, res.History.Passes, 2)
	assert.Contains(t, res.Report, "# Report", "the writer composes the last draft when passes run out")
	assert.Equal(t, ResultPartial, res.Status)
	assert.Equal(t, sdk.VerdictReject, res.Review.Status)
}

const retrievalCheck = `
check "retrieval_found_data" {
  applies = "step.action == 'retrieve'"
  assert  = "len(step.records) > 0"
  message = "retrieval returned no records"
  on_fail = "refine"
  refine {
    op           = "MODIFY"
    drop_filters = ["dates"]
  }
}
`

func TestFailedCheckBroadensQuery(t *testing.T) {
	rs := loadRules(t, retrievalCheck)
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(_ context.Context, req sdk.FetchRequest) ([]sdk.Record, error) {
			if !req.Since.IsZero() {
				return nil, nil // nothing in the week
			}
			return commits(2), nil
		},
	}}
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)

	reqs := src.requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "Retrieve commit data from GitLab projects:acme/pay", reqs[1].Req.Query, "the dates filter is dropped")
	assert.True(t, reqs[1].Req.Since.IsZero())
	assert.Equal(t, map[string][]string{"projects": {"acme/pay"}}, reqs[1].Req.Filters)

	p1 := res.History.Passes[0]
	require.Len(t, p1.Validation.Findings, 1)
	assert.Equal(t, history.Finding{Check: "retrieval_found_data", Step: "h0", Severity: history.SeverityFail, Message: "retrieval returned no records", OnFail: "refine"}, p1.Validation.Findings[0])
	assert.Equal(t, []history.Refinement{{Op: OpModify, Step: "h0", DropFilters: []string{"dates"}, Justification: `check "retrieval_found_data": retrieval returned no records`, Applied: true}}, p1.Refinements)
	assert.Len(t, p1.Steps, 1, "dependents wait for the refined step")
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Equal(t, map[string][]string{"projects": {"acme/pay"}}, res.History.Passes[1].Steps[0].Filters)
	assert.Equal(t, 1, res.History.Passes[1].Steps[0].Attempt)
}

func TestRefinementLimitsStopTheLoop(t *testing.T) {
	t.Run("per step", func(t *testing.T) {
		rs := loadRules(t, "loop {\n  max_passes = 10\n  refine_per_step = 3\n}\n")
		agents := standardAgents()
		agents.roles[sdk.RoleCritic] = func(sdk.InvokeRequest) (string, error) {
			return mustJSON(sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "never good", Suggestions: []string{}, LogicalGaps: []string{}}), nil
		}
		res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		assert.Equal(t, history.RefineLimit, res.History.Termination)
		require.Len(t, res.History.Passes, 4, "three revisions, then the limit")
		last := res.History.Passes[3].Refinements
		require.Len(t, last, 1)
		assert.False(t, last[0].Applied)
		assert.Equal(t, "refinement limit reached: 3 per step", last[0].Refused)
		assert.Len(t, agents.requests(sdk.RoleAnalyst), 4)
		assert.Contains(t, res.Report, "# Report", "the writer still composes the last draft")
		assert.Equal(t, ResultPartial, res.Status)
	})
	t.Run("global", func(t *testing.T) {
		rs := loadRules(t, retrievalCheck+"loop {\n  max_passes = 10\n  refine_total = 1\n}\n")
		plan := buildPlan(rs, "q", "discovery", map[string][]string{"dates": {"last week"}},
			stepSpec{id: "h0", desc: "a", action: "retrieve", retrieve: []planSpec{{source: "git", filters: engine.Filters{{Key: "dates", Values: []string{"last week"}}}}}},
			stepSpec{id: "h1", desc: "b", action: "retrieve", retrieve: []planSpec{{source: "git", filters: engine.Filters{{Key: "dates", Values: []string{"last week"}}}}}},
		)
		res, err := New(gitSource(nil), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
		require.NoError(t, err)
		refs := res.History.Passes[0].Refinements
		require.Len(t, refs, 2)
		assert.True(t, refs[0].Applied)
		assert.Equal(t, "refinement limit reached: 1 in total", refs[1].Refused)
		assert.Equal(t, StatusFailed, res.Steps[1].Status)
		assert.Contains(t, res.Steps[1].Error, "refinement limit reached: 1 in total")
	})
	t.Run("unchanging delta", func(t *testing.T) {
		rs := loadRules(t, retrievalCheck+"loop {\n  max_passes = 10\n}\n")
		res, err := New(gitSource(nil), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		assert.Equal(t, history.RefineLimit, res.History.Termination)
		require.Len(t, res.History.Passes, 2, "dates dropped once; dropping them again would change nothing")
		assert.Equal(t, "refinement would not change the step", res.History.Passes[1].Refinements[0].Refused)
		assert.Equal(t, StatusFailed, res.Steps[0].Status)
		assert.Equal(t, StatusSkipped, res.Steps[2].Status)
		assert.Equal(t, ResultFailed, res.Status)
	})
}

func TestTTLStopsTheLoop(t *testing.T) {
	rs := loadRules(t, retrievalCheck+"loop {\n  max_passes = 10\n  ttl = \"30ms\"\n  refine_per_step = 10\n}\n")
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(ctx context.Context, _ sdk.FetchRequest) ([]sdk.Record, error) {
			time.Sleep(20 * time.Millisecond)
			return nil, nil
		},
	}}
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, history.TTLExpired, res.History.Termination)
	assert.Less(t, len(res.History.Passes), 10)
	assert.NotEqual(t, ResultSuccess, res.Status)
}

func TestStrictModeNoValidSources(t *testing.T) {
	rs := loadRules(t, retrievalCheck)
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"forum": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
			return []sdk.Record{{ID: "p1", Source: "forum"}, {ID: "p2", Source: "forum"}}, nil
		},
	}}
	plan := buildPlan(rs, "verify the outage", "strict", nil,
		stepSpec{id: "h0", desc: "Retrieve posts", action: "retrieve", retrieve: []planSpec{{source: "forum"}}},
		stepSpec{id: "h1", desc: "Answer", action: "agent", role: "writer", deps: []string{"h0"}},
	)
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.Error(t, err)
	assert.True(t, IsNoValidSources(err))
	assert.Contains(t, err.Error(), "no valid sources")
	assert.Equal(t, ResultFailed, res.Status)
	assert.Equal(t, history.Failed, res.History.Termination)
	assert.Contains(t, res.Error, "no valid sources")
	assert.Equal(t, StatusFailed, res.Steps[0].Status)
}

func TestDiscoveryFlagsAndMonitorGroups(t *testing.T) {
	rs := loadRules(t, "")
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return commits(1), nil },
		"forum": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
			return []sdk.Record{{ID: "p1", Body: "rumour"}}, nil
		},
	}}
	mk := func(mode string) *engine.Plan {
		return buildPlan(rs, "q", mode, nil, stepSpec{id: "h0", desc: "r", action: "retrieve", retrieve: []planSpec{{source: "git", priority: 9}, {source: "forum", priority: 1}}})
	}
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), mk("discovery"))
	require.NoError(t, err)
	require.Len(t, res.Records, 2)
	assert.Equal(t, "[Tier 5 | social] rumour", res.Records[1].Body, "a record without source gets the source's name")
	assert.Equal(t, 1, res.History.Passes[0].Steps[0].Flagged)

	res, err = New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), mk("monitor"))
	require.NoError(t, err)
	require.Len(t, res.Groups, 2)
	assert.Equal(t, []string{"c1"}, res.Groups[0].Records)
	assert.Equal(t, []string{"p1"}, res.Groups[1].Records)
}

func TestCrashingAgentKeepsHistory(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	agents.roles[sdk.RoleWriter] = func(sdk.InvokeRequest) (string, error) {
		return "", sdk.Errorf(sdk.KindUnavailable, "plugin writer exited unexpectedly (signal: killed)")
	}
	res, err := New(gitSource(commits(2)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, StatusCompleted, res.Steps[0].Status)
	assert.Equal(t, StatusCompleted, res.Steps[1].Status)
	assert.Equal(t, StatusFailed, res.Steps[2].Status)
	assert.Contains(t, res.Steps[2].Error, "exited unexpectedly")
	assert.Equal(t, ResultPartial, res.Status)
	assert.Len(t, res.History.Passes[0].Steps, 3)
	assert.Contains(t, res.Pending, "report", "the report commitment is still pending")
	assert.Contains(t, res.Report, "h2 Format commit summary for user: failed")
}

func TestMalformedAgentOutput(t *testing.T) {
	rs := loadRules(t, "")
	t.Run("repaired", func(t *testing.T) {
		agents := standardAgents()
		agents.roles[sdk.RoleCritic] = func(sdk.InvokeRequest) (string, error) {
			return "Sure! ```json\n{status: 'PASS', critique: 'good', suggestions: [], logical_gaps: [],}\n```", nil
		}
		dir := t.TempDir()
		res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock, LogDir: dir}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		assert.Equal(t, ResultSuccess, res.Status)
		assert.Len(t, agents.requests(sdk.RoleCritic), 1, "no retry needed")
		b, err := os.ReadFile(filepath.Join(dir, res.ExecutionID, "iteration_1_critic_h2.json"))
		require.NoError(t, err)
		var call history.AgentCall
		require.NoError(t, json.Unmarshal(b, &call))
		assert.True(t, call.Repaired)
	})
	t.Run("retried then rejected", func(t *testing.T) {
		agents := standardAgents()
		agents.roles[sdk.RoleWriter] = func(sdk.InvokeRequest) (string, error) {
			return `{"final_report": 42, "mood": "sad"}`, nil
		}
		res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		calls := agents.requests(sdk.RoleWriter)
		require.Len(t, calls, 2, "one retry")
		assert.Contains(t, calls[1].Instructions, "Your previous answer was rejected")
		assert.Equal(t, StatusFailed, res.Steps[2].Status)
		assert.Contains(t, res.Steps[2].Error, `agent "writer" (writer): output rejected after a retry: does not match the writer schema: "final_report" must be a string; unknown field "mood"`)
	})
	t.Run("retry succeeds", func(t *testing.T) {
		agents := standardAgents()
		good := agents.roles[sdk.RoleWriter]
		var n atomic.Int32
		agents.roles[sdk.RoleWriter] = func(req sdk.InvokeRequest) (string, error) {
			if n.Add(1) == 1 {
				return `I cannot answer in JSON`, nil
			}
			return good(req)
		}
		res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		assert.Equal(t, ResultSuccess, res.Status)
	})
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
	assert.Equal(t, StatusFailed, res.History.Passes[0].Steps[0].Status)
	assert.Contains(t, res.History.Passes[0].Steps[0].Error, "context canceled")
	assert.Equal(t, StatusSkipped, res.Steps[2].Status)
}

func TestRefinementOps(t *testing.T) {
	tests := []struct {
		name, refine string
		check        func(t *testing.T, res *Result, src *fakeSources)
	}{
		{"REMOVE", `op = "REMOVE"`, func(t *testing.T, res *Result, src *fakeSources) {
			assert.Equal(t, StatusRemoved, res.Steps[0].Status)
			assert.Equal(t, StatusCompleted, res.Steps[2].Status, "dependents run without the removed step")
			assert.Len(t, src.requests(), 1)
		}},
		{"REPLACE", "op = \"REPLACE\"\n    set_filters = { projects = [\"acme/all\"] }", func(t *testing.T, res *Result, src *fakeSources) {
			reqs := src.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, "Retrieve commit data from GitLab projects:acme/all", reqs[1].Req.Query)
			assert.True(t, reqs[1].Req.Since.IsZero(), "replace drops every other filter")
			assert.Equal(t, ResultSuccess, res.Status)
		}},
		{"ADD", "op = \"ADD\"\n    drop_filters = [\"projects\"]\n    limit = 7", func(t *testing.T, res *Result, src *fakeSources) {
			reqs := src.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, 7, reqs[1].Req.Limit)
			assert.Equal(t, "Retrieve commit data from GitLab dates:last week", reqs[1].Req.Query)
			require.Len(t, res.Steps, 4)
			assert.Equal(t, "h0.r1", res.Steps[3].ID)
			assert.Equal(t, StatusCompleted, res.Steps[0].Status, "the target keeps its output")
			assert.Equal(t, []history.Refinement{{Op: OpAdd, Step: "h0", NewStep: "h0.r1", DropFilters: []string{"projects"}, Limit: 7,
				Justification: `check "retrieval_found_data": retrieval returned no records`, Applied: true}}, res.History.Passes[0].Refinements)
			assert.Contains(t, res.Report, "records: c1")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := loadRules(t, `
check "retrieval_found_data" {
  applies = "step.action == 'retrieve' && step.attempts == 0 && len(step.records) == 0"
  assert  = "false"
  message = "retrieval returned no records"
  on_fail = "refine"
  refine {
    `+tt.refine+`
  }
}
`)
			var n atomic.Int32
			src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
				"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
					if n.Add(1) == 1 {
						return nil, nil
					}
					return commits(1), nil
				},
			}}
			res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
			require.NoError(t, err)
			tt.check(t, res, src)
		})
	}
}

func TestLogDirAndRedaction(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	agents.roles[sdk.RoleWriter] = func(sdk.InvokeRequest) (string, error) {
		return "", errors.New("401 Unauthorized: bad key sk-verysecret")
	}
	dir := t.TempDir()
	res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock, LogDir: dir, Redactor: redact.New("sk-verysecret")}).
		Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Contains(t, res.Steps[2].Error, "bad key [REDACTED]")

	names, err := os.ReadDir(filepath.Join(dir, res.ExecutionID))
	require.NoError(t, err)
	var files []string
	for _, n := range names {
		files = append(files, n.Name())
		b, err := os.ReadFile(filepath.Join(dir, res.ExecutionID, n.Name()))
		require.NoError(t, err)
		assert.NotContains(t, string(b), "sk-verysecret", n.Name())
	}
	assert.Equal(t, []string{"history.json", "iteration_1_analyst_h2.json", "iteration_1_critic_h2.json", "iteration_1_writer_h2.json", "session_summary.json"}, files)
	var sum history.Summary
	b, err := os.ReadFile(filepath.Join(dir, res.ExecutionID, "session_summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &sum))
	assert.Equal(t, 1, sum.TotalIterations)
	assert.Equal(t, ResultPartial, sum.FinalStatus)
	for _, e := range res.Trace {
		assert.NotContains(t, e.Error, "sk-verysecret")
	}
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
		res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
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

func TestTransforms(t *testing.T) {
	rs := loadRules(t, "")
	recs := []sdk.Record{
		{ID: "a", Source: "git", Title: "docs typo", Time: fixedNow.Add(-48 * time.Hour), Author: "bob", Kind: "commit", Fields: map[string]any{"project": "acme/web"}},
		{ID: "b", Source: "git", Title: "payments retry", Time: fixedNow.Add(-72 * time.Hour), Author: "alice", Kind: "commit", Fields: map[string]any{"project": "acme/pay"}},
		{ID: "c", Source: "git", Title: "payments refund", Time: fixedNow.Add(-30 * 24 * time.Hour), Author: "alice", Kind: "issue", Fields: map[string]any{"project": "acme/pay"}},
	}
	ents := map[string][]string{"dates": {"last week"}, "projects": {"acme/pay"}}
	for _, tt := range []struct {
		action string
		ids    []string // kept records
		text   string
	}{
		{"filter", []string{"b"}, "kept 1 of 3 record(s)"},
		{"rank", []string{"b", "c", "a"}, "ranked 3 record(s) by relevance to 2 query term(s)"},
		{"aggregate", []string{"a", "b", "c"}, "aggregated 3 record(s): by kind commit 2, issue 1; by source git 3"},
		{"stats", []string{"a", "b", "c"}, "3 record(s); kinds: commit 2, issue 1; sources: git 3; authors: alice 2, bob 1"},
	} {
		t.Run(tt.action, func(t *testing.T) {
			plan := buildPlan(rs, "payments changes last week", "discovery", ents,
				stepSpec{id: "h0", desc: "r", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
				stepSpec{id: "h1", desc: "t", action: tt.action, deps: []string{"h0"}})
			res, err := New(gitSource(recs), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
			require.NoError(t, err)
			st := res.Steps[1]
			assert.Equal(t, tt.text, st.Output)
			assert.Equal(t, len(tt.ids), st.Records)
		})
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

func TestRoleSchemasAreJSONSchemas(t *testing.T) {
	for role, s := range roleSchemas {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(s.schemaJSON(), &doc), role)
		assert.Equal(t, "object", doc["type"])
		assert.Equal(t, false, doc["additionalProperties"])
	}
}

func TestRankOrder(t *testing.T) {
	recs := []sdk.Record{
		{ID: "a", Title: "docs typo", Time: fixedNow.Add(-time.Hour)},
		{ID: "b", Title: "payments retry", Time: fixedNow.Add(-2 * time.Hour)},
		{ID: "c", Title: "payments refund changes", Time: fixedNow.Add(-3 * time.Hour)},
		{ID: "d", Title: "payments retry", Time: fixedNow.Add(-2 * time.Hour)},
	}
	out := rank("what payments changes?", recs)
	var ids []string
	for _, r := range out.Records {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"c", "b", "d", "a"}, ids, "more terms first, then newer, then by ID")
}

func TestAgentTimeoutFromRules(t *testing.T) {
	rs2, failed := rulesWithWriterTimeout(t)
	require.False(t, failed)
	agents := standardAgents()
	agents.roles[sdk.RoleWriter] = func(req sdk.InvokeRequest) (string, error) {
		time.Sleep(200 * time.Millisecond)
		return "", errors.New("too late")
	}
	slow := &deadlineAgents{next: agents}
	res, err := New(gitSource(commits(1)), slow, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs2, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, StatusFailed, res.Steps[2].Status)
	assert.Contains(t, res.Steps[2].Error, "context deadline exceeded")
	d, ok := slow.deadline(sdk.RoleWriter)
	require.True(t, ok, "the writer call had a deadline")
	assert.True(t, d.Before(slow.started(sdk.RoleWriter).Add(30*time.Second)), "the agent's 20ms timeout, not the 60s TTL, bounds the call")
}

// rulesWithWriterTimeout is baseRules with a 20ms writer timeout.
func rulesWithWriterTimeout(t *testing.T) (*rules.Ruleset, bool) {
	src := strings.Replace(baseRules, `agent "writer" { plugin = "builtin:template" }`, "agent \"writer\" {\n  plugin  = \"builtin:template\"\n  timeout = \"20ms\"\n}", 1)
	rs, diags := rules.Parse("t.hcl", []byte(src))
	if diags.HasErrors() {
		t.Log(diags.Error())
	}
	return rs, diags.HasErrors()
}

// deadlineAgents records each call's deadline and honours the context.
type deadlineAgents struct {
	next  *fakeAgents
	mu    sync.Mutex
	dl    map[string]time.Time
	start map[string]time.Time
}

func (d *deadlineAgents) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	d.mu.Lock()
	if d.dl == nil {
		d.dl, d.start = map[string]time.Time{}, map[string]time.Time{}
	}
	if dl, ok := ctx.Deadline(); ok {
		d.dl[req.Role] = dl
	}
	d.start[req.Role] = time.Now()
	d.mu.Unlock()
	type answer struct {
		resp sdk.InvokeResponse
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		r, err := d.next.Invoke(ctx, agent, req)
		ch <- answer{r, err}
	}()
	select {
	case a := <-ch:
		return a.resp, a.err
	case <-ctx.Done():
		return sdk.InvokeResponse{}, ctx.Err()
	}
}

func (d *deadlineAgents) deadline(role string) (time.Time, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, ok := d.dl[role]
	return t, ok
}

func (d *deadlineAgents) started(role string) time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.start[role]
}

func TestPromptTemplateErrorFailsStep(t *testing.T) {
	rs := loadRules(t, "prompt \"critic\" {\n  template = \"{{.Input.NoSuchField}}\"\n}\n")
	res, err := New(gitSource(commits(1)), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, StatusFailed, res.Steps[2].Status)
	assert.Contains(t, res.Steps[2].Error, `prompt "critic"`)
	assert.Contains(t, res.Steps[2].Error, "NoSuchField")
}

func TestSingleRoleSteps(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	plan := buildPlan(rs, "which project?", "discovery", nil,
		stepSpec{id: "h0", desc: "r", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
		stepSpec{id: "h1", desc: "draft", action: "agent", role: "analyst", deps: []string{"h0"}},
		stepSpec{id: "h2", desc: "review", action: "agent", role: "critic", deps: []string{"h1"}},
		stepSpec{id: "h3", desc: "ask back", action: "agent", role: "clarification"},
	)
	res, err := New(gitSource(commits(2)), agents, Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Equal(t, "draft: c1 c2", res.Steps[1].Output)
	assert.Equal(t, "fine", res.Steps[2].Output)
	var cin sdk.CriticInput
	require.NoError(t, json.Unmarshal(agents.requests(sdk.RoleCritic)[0].Input, &cin))
	assert.Equal(t, "draft: c1 c2", cin.Draft, "the critic reviews its dependency's draft")
	assert.Equal(t, "Which project?\n- a\n- b", res.Steps[3].Output)
	require.NotNil(t, res.Clarification)
	assert.Equal(t, []string{"a", "b"}, res.Clarification.Options)
	assert.Len(t, agents.requests(sdk.RoleWriter), 0)
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
	assert.Equal(t, StatusSkipped, res.Steps[0].Status)
	assert.Equal(t, "not run: loop ended (stalled)", res.Steps[0].Error)

	res, err = New(gitSource(nil), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), buildPlan(rs, "hello", "discovery", nil))
	require.NoError(t, err)
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Equal(t, history.Converged, res.History.Termination)
	assert.Equal(t, "# hello\n", res.Report)
}

func TestAnalystGapSearch(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	draft := agents.roles[sdk.RoleAnalyst]
	var n atomic.Int32
	agents.roles[sdk.RoleAnalyst] = func(req sdk.InvokeRequest) (string, error) {
		if n.Add(1) == 1 {
			return mustJSON(sdk.AnalystOutput{Status: sdk.AnalystSearchRequired, NewQueries: []string{"payments outage"}, Draft: "", ReasoningChain: "no evidence on the outage"}), nil
		}
		return draft(req)
	}
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(_ context.Context, req sdk.FetchRequest) ([]sdk.Record, error) {
			if req.Query == "payments outage" {
				return []sdk.Record{{ID: "o1", Source: "git", Title: "outage postmortem"}}, nil
			}
			return commits(1), nil
		},
	}}
	res, err := New(src, agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	require.Len(t, res.History.Passes, 2)
	assert.Equal(t, []history.Refinement{{Op: OpAdd, Step: "h2", NewStep: "h2.s1", Justification: "analyst needs more data: payments outage", Applied: true}},
		res.History.Passes[0].Refinements)
	p2 := res.History.Passes[1].Steps
	require.Len(t, p2, 2)
	assert.Equal(t, "h2.s1", p2[0].ID, "the search runs first")
	assert.Equal(t, "h2", p2[1].ID)
	assert.Contains(t, res.Report, "draft: c1 o1", "the analyst drafts from the found evidence")
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Equal(t, history.Converged, res.History.Termination)
	ids := []string{}
	for _, r := range res.Records {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"c1", "o1"}, ids)
}

func TestAnalystGapSearchGivesUp(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	agents.roles[sdk.RoleAnalyst] = func(sdk.InvokeRequest) (string, error) {
		return mustJSON(sdk.AnalystOutput{Status: sdk.AnalystSearchRequired, NewQueries: []string{"unfindable"}, Draft: ""}), nil
	}
	res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, history.RefineLimit, res.History.Termination, "the same search twice would change nothing")
	assert.Equal(t, "refinement would not change the step", res.History.Passes[1].Refinements[0].Refused)
	assert.Equal(t, StatusCompleted, res.Steps[2].Status, "the writer composes with what there is")
	assert.Contains(t, res.Report, "# Report")
	assert.Equal(t, ResultPartial, res.Status)
}
