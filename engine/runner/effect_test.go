package runner

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An effect step changes an external system: nous never performs it, and
// the run says so first, as partial, whatever the step is called.
func TestEffectStepIsReportedNotExecuted(t *testing.T) {
	tests := []struct {
		name, query, desc, caveat string
	}{
		{"command", "please close PAY-101", "Execute command action",
			"Not executed: close PAY-101; here is what it would do: Execute command action (step h1). nous does not change external systems."},
		{"any phrasing", "Deploy the release to staging!", "Roll out the build",
			"Not executed: Deploy the release to staging; here is what it would do: Roll out the build (step h1). nous does not change external systems."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := loadRules(t, "")
			plan := buildPlan(rs, tt.query, "discovery", nil,
				stepSpec{id: "h0", desc: "Validate command preconditions and permissions", action: "agent", role: "analyst"},
				stepSpec{id: "h1", desc: tt.desc, action: "effect", deps: []string{"h0"}},
				stepSpec{id: "h2", desc: "Verify command execution result", action: "agent", role: "writer", deps: []string{"h1"}},
			)
			plan.Reasoning.Intents = []engine.Intent{{Type: "command_action", Confidence: 0.8}}
			res, err := New(gitSource(nil), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
			require.NoError(t, err)

			assert.Equal(t, ResultPartial, res.Status)
			require.NotEmpty(t, res.Caveats)
			assert.Equal(t, tt.caveat, res.Caveats[0])
			assert.Contains(t, Compose(res), caveatPrefix+tt.caveat, "the report opens with it")
			require.Len(t, res.Steps, 3)
			h1 := res.Steps[1]
			assert.Equal(t, engine.StatusCompleted, h1.Status, "the steps after it still run")
			assert.Equal(t, "not executed: nous does not change external systems", h1.Partial)
			for _, e := range res.Trace {
				if e.Stage == trace.Execution && e.Action == "effect" {
					assert.Equal(t, trace.Partial, e.Outcome)
				}
			}
			require.Len(t, res.Answers, 1)
			assert.Equal(t, ResultPartial, res.Answers[0].Status)
			assert.NotEqual(t, "High", res.Answers[0].Confidence)
		})
	}
}
