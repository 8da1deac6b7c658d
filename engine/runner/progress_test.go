package runner

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A refused refinement's progress line keeps the justification and the
// refusal apart (they were glued into one sentence).
func TestProgressRefusedRefinement(t *testing.T) {
	rs := loadRules(t, "loop {\n  max_passes = 10\n  refine_per_step = 1\n}\n")
	agents := standardAgents()
	agents.roles[sdk.RoleCritic] = func(sdk.InvokeRequest) (string, error) {
		return mustJSON(sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "never good", Suggestions: []string{}, LogicalGaps: []string{}}), nil
	}
	var refines []Event
	progress := func(ev Event) {
		if ev.Kind == "refine" {
			refines = append(refines, ev)
		}
	}
	_, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock, Progress: progress}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	require.Len(t, refines, 2, "one revision, then the limit")
	assert.Equal(t, "critic rejected the draft: never good", refines[0].Detail)
	assert.Equal(t, "critic rejected the draft: never good (not applied: refinement limit reached: 1 per step)", refines[1].Detail)
}
