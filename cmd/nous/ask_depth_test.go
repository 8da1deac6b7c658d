package main

import (
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A simple question runs at the default floor; its empty week needs the
// nearest commit before it, which deepens the run by one level and gives
// the refinement its second pass. The plan, the history and the trace say
// so.
func TestAskDepthDeepensForTheNearestCommit(t *testing.T) {
	repo := askRepo(t, map[string]string{"Ancient fix": "2026-09-01T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	out, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))

	require.NotNil(t, doc.Plan.Profile)
	assert.Equal(t, "direct", doc.Plan.Profile.Depth.Name)
	h := doc.History
	require.NotNil(t, h.Configuration.Profile)
	assert.Equal(t, 1, h.Configuration.MaxPasses, "the direct level's budget")
	assert.Equal(t, "1m0s", h.Configuration.TTL, "the loop document's 60 s: the TTL is a safety bound, not effort")
	assert.Equal(t, 1000, h.Configuration.MaxRecords)
	require.Len(t, h.Passes, 2)
	assert.Equal(t, "direct", h.Passes[0].Depth)
	require.NotNil(t, h.Passes[0].DepthChange)
	assert.Equal(t, "focused", h.Passes[0].DepthChange.To)
	assert.Equal(t, 2, h.Passes[0].DepthChange.MaxPasses)
	assert.Equal(t, `profile: deepen = "pass.need_refinement > 0"`, h.Passes[0].DepthChange.Reason)
	assert.Equal(t, "focused", h.Passes[1].Depth)
	assert.Contains(t, doc.Result.Report, "Ancient fix", "the refinement found the nearest commit")

	actions := map[string]trace.Stage{}
	for _, e := range doc.Trace {
		actions[e.Action] = e.Stage
	}
	assert.Equal(t, trace.Planning, actions["profile"])
	assert.Equal(t, trace.Correction, actions["depth"])
}

func TestPlanShowsTheDepth(t *testing.T) {
	code, out, stderr := nous(t, "", "plan", "--format", "text", "what is the status of the project and who changed the code since v2.20.0, and are there open issues?")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "depth: standard (level 3): 3 pass(es), ttl 1m0s, 1000 records a step\n")
	assert.Contains(t, out, `why: depth "standard": when = `)
	assert.Contains(t, out, `(counted again after plan validation; depth "broad" before)`, "the issue retrievals no source serves are not counted")
	assert.Contains(t, out, "profile: 19 words, 3 intents, 2 entities (2 constraints), 9 hypotheses, 3 agent steps, 2 retrievals, 1 sources\n")
}
