package runner

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// depthLevels are two levels: a one-pass floor and a deeper level with
// two passes and room for one record a step.
const depthLevels = `
loop {
  max_passes = 3
  ttl = "60s"
}
depth "quick" {
  level = 1
  max_passes = 1
  ttl = "30s"
}
depth "careful" {
  level = 2
  max_passes = 2
  ttl = "45s"
  max_records = 1
}
`

// emptyWeek finds nothing in the asked week and two commits without it.
func emptyWeek() *fakeSources {
	return &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(_ context.Context, req sdk.FetchRequest) ([]sdk.Record, error) {
			if !req.Since.IsZero() {
				return nil, nil
			}
			return commits(2), nil
		},
	}}
}

// atDepth is the commit chain planned at the level numbered level.
func atDepth(t *testing.T, extra string, level int) *engine.Plan {
	t.Helper()
	plan := commitChain(loadRules(t, retrievalCheck+depthLevels+extra), "discovery")
	ds := plan.Policy.Depths
	require.NotNil(t, ds)
	plan.Profile = &engine.Profile{Depth: ds.Levels[ds.Index(level)].Depth, Reason: "test"}
	return plan
}

func TestDepthDeepensWhenAPassNeedsRefinement(t *testing.T) {
	plan := atDepth(t, "profile {\n  deepen = \"pass.need_refinement > 0\"\n}\n", 1)
	agents := standardAgents()
	var events []Event
	res, err := New(emptyWeek(), agents, Options{Clock: fixedClock, Progress: func(ev Event) {
		if ev.Kind == "depth" {
			events = append(events, ev)
		}
	}}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Equal(t, []Event{{Kind: "depth", Pass: 1, Status: "careful", Detail: `quick → careful (profile: deepen = "pass.need_refinement > 0")`}}, events)

	h := res.History
	assert.Equal(t, 1, h.Configuration.MaxPasses, "the run begins with the quick level's budget")
	assert.Equal(t, "30s", h.Configuration.TTL)
	require.NotNil(t, h.Configuration.Profile)
	assert.Equal(t, "quick", h.Configuration.Profile.Depth.Name)
	require.Len(t, h.Passes, 2, "the deeper level gives the refinement its pass")
	assert.Equal(t, "quick", h.Passes[0].Depth)
	assert.Equal(t, &history.DepthChange{From: "quick", To: "careful", Level: 2, MaxPasses: 2, TTL: "45s", MaxRecords: 1,
		Reason: `profile: deepen = "pass.need_refinement > 0"`}, h.Passes[0].DepthChange)
	assert.Equal(t, "careful", h.Passes[1].Depth)
	assert.Nil(t, h.Passes[1].DepthChange, "a converged pass is not re-assessed")
	assert.Equal(t, history.Converged, h.Termination)

	w := agents.requests(sdk.RoleWriter)
	require.Len(t, w, 1)
	var in sdk.WriterInput
	require.NoError(t, json.Unmarshal(w[0].Input, &in))
	assert.Equal(t, "careful", in.Depth, "agents are told the depth they run at")
	assert.Len(t, w[0].Context, 1, "the careful level holds one record a step")
	assert.Equal(t, 2, in.Evidence.Total, "and counts the rest")

	var profile, change *trace.Entry
	for i, e := range res.Trace {
		switch e.Action {
		case "profile":
			profile = &res.Trace[i]
		case "depth":
			change = &res.Trace[i]
		}
	}
	require.NotNil(t, profile)
	assert.Equal(t, trace.Planning, profile.Stage)
	assert.Equal(t, []string{"test"}, profile.Evidence)
	require.NotNil(t, change)
	assert.Equal(t, trace.Correction, change.Stage)
	assert.Equal(t, "Depth deeper after pass 1: quick → careful", change.Thought)
	assert.Equal(t, []string{`profile: deepen = "pass.need_refinement > 0"`}, change.Evidence)
}

func TestDepthWithoutReassessmentKeepsItsBudget(t *testing.T) {
	res, err := New(emptyWeek(), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), atDepth(t, "", 1))
	require.NoError(t, err)
	require.Len(t, res.History.Passes, 1)
	assert.Nil(t, res.History.Passes[0].DepthChange)
	assert.Equal(t, history.MaxPasses, res.History.Termination, "the quick level has one pass")
}

func TestDepthEasesToFewerPasses(t *testing.T) {
	plan := atDepth(t, "profile {\n  deepen = \"pass.failed > 5\"\n  ease = \"pass.records == 0\"\n}\n", 2)
	res, err := New(emptyWeek(), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	h := res.History
	require.Len(t, h.Passes, 1)
	require.NotNil(t, h.Passes[0].DepthChange)
	assert.Equal(t, "quick", h.Passes[0].DepthChange.To)
	assert.Equal(t, history.MaxPasses, h.Termination, "the shallower level has no pass left")
}

func TestPlanWithoutProfileRunsWithTheLoop(t *testing.T) {
	plan := commitChain(loadRules(t, depthLevels), "discovery")
	res, err := New(gitSource(commits(2)), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Equal(t, 3, res.History.Configuration.MaxPasses)
	assert.Nil(t, res.History.Configuration.Profile)
	assert.Empty(t, res.History.Passes[0].Depth)
}
