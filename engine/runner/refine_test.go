package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
		assert.Equal(t, engine.StatusFailed, res.Steps[1].Status)
		assert.Contains(t, res.Steps[1].Error, "refinement limit reached: 1 in total")
	})
	t.Run("unchanging delta", func(t *testing.T) {
		rs := loadRules(t, retrievalCheck+"loop {\n  max_passes = 10\n}\n")
		res, err := New(gitSource(nil), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		assert.Equal(t, history.RefineLimit, res.History.Termination)
		require.Len(t, res.History.Passes, 2, "dates dropped once; dropping them again would change nothing")
		assert.Equal(t, "refinement would not change the step", res.History.Passes[1].Refinements[0].Refused)
		assert.Equal(t, engine.StatusFailed, res.Steps[0].Status)
		assert.Equal(t, engine.StatusSkipped, res.Steps[2].Status)
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

func TestRefinementOps(t *testing.T) {
	tests := []struct {
		name, refine string
		check        func(t *testing.T, res *Result, src *fakeSources)
	}{
		{"REMOVE", `op = "REMOVE"`, func(t *testing.T, res *Result, src *fakeSources) {
			assert.Equal(t, engine.StatusRemoved, res.Steps[0].Status)
			assert.Equal(t, engine.StatusCompleted, res.Steps[2].Status, "dependents run without the removed step")
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
			assert.Equal(t, engine.StatusCompleted, res.Steps[0].Status, "the target keeps its output")
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
	assert.Equal(t, engine.StatusCompleted, res.Steps[2].Status, "the writer composes with what there is")
	assert.Contains(t, res.Report, "# Report")
	assert.Equal(t, ResultPartial, res.Status)
}

func TestAgentStepRetriedByBareModify(t *testing.T) {
	rs := loadRules(t, `
check "report_mentions_c9" {
  applies = "step.role == 'writer'"
  assert  = "step.output contains 'c9'"
  message = "the report does not mention c9"
  on_fail = "refine"
  refine {
    op = "MODIFY"
  }
}
loop {
  max_passes      = 10
  refine_per_step = 2
}
`)
	agents := standardAgents()
	res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Len(t, agents.requests(sdk.RoleWriter), 3, "asked again twice, then the per-step limit")
	assert.Equal(t, history.RefineLimit, res.History.Termination)
	assert.Equal(t, engine.StatusFailed, res.Steps[2].Status)
	assert.Contains(t, res.Steps[2].Error, "refinement limit reached: 2 per step")
}
