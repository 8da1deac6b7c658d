package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The writer's final compose after the passes run out is a step run like
// any other: its history entry carries a duration (it was left at 0).
func TestComposeRejectedRecordsDuration(t *testing.T) {
	rs := loadRules(t, "loop {\n  max_passes = 1\n}\n")
	agents := standardAgents()
	agents.roles[sdk.RoleCritic] = func(req sdk.InvokeRequest) (string, error) {
		return mustJSON(sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "never good", Suggestions: []string{}, LogicalGaps: []string{}}), nil
	}
	var ticks atomic.Int64
	clock := func() time.Time { return fixedNow.Add(time.Duration(ticks.Add(1)) * time.Second) }
	res, err := New(gitSource(commits(1)), agents, Options{Clock: clock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	require.Len(t, res.History.Passes, 1)
	steps := res.History.Passes[0].Steps
	require.NotEmpty(t, steps)
	final := steps[len(steps)-1]
	require.Equal(t, engine.StatusCompleted, final.Status, "the writer composed the rejected draft")
	assert.Positive(t, final.DurationMS)
	assert.Equal(t, final.EndedAt.Sub(final.StartedAt).Milliseconds(), final.DurationMS)
	for _, s := range steps {
		assert.Equal(t, s.EndedAt.Sub(s.StartedAt).Milliseconds(), s.DurationMS, s.ID)
	}
}

// A panic in the final compose fails the writer step, as it would inside
// the loop, instead of crashing the process.
func TestComposeRejectedPanicFailsStep(t *testing.T) {
	rs := loadRules(t, "loop {\n  max_passes = 1\n}\n")
	agents := standardAgents()
	agents.roles[sdk.RoleCritic] = func(req sdk.InvokeRequest) (string, error) {
		return mustJSON(sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "never good", Suggestions: []string{}, LogicalGaps: []string{}}), nil
	}
	agents.roles[sdk.RoleWriter] = func(req sdk.InvokeRequest) (string, error) { panic("writer bug") }
	res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	writer := res.Steps[len(res.Steps)-1]
	assert.Equal(t, engine.StatusFailed, writer.Status)
	assert.Contains(t, writer.Error, "panicked: writer bug")
}
