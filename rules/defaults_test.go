package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoopDefaultsFillWhatTheRulesLeaveUnset(t *testing.T) {
	rs, diags := Parse("l.hcl", []byte("loop {\n  workers = 2\n  ttl = \"5s\"\n}\n"))
	require.False(t, diags.HasErrors(), diags.Error())
	assert.Equal(t, Loop{MaxPasses: DefaultMaxPasses, TTL: 5 * time.Second, RefinePerStep: DefaultRefinePerStep,
		RefineTotal: DefaultRefineTotal, Workers: 2, MaxRecords: DefaultMaxRecords}, rs.Loop)
}

func TestHypothesisRuns(t *testing.T) {
	tests := []struct {
		name, body          string
		action, role, agent string
	}{
		{"no action", `description = "d"`, "", "", ""},
		{"transform", `action = "rank"`, "rank", "", ""},
		{"agent step without a role is the writer", `action = "agent"`, "agent", "writer", "writer"},
		{"role names its agent", "action = \"agent\"\n    role = \"critic\"", "agent", "critic", "critic"},
		{"agent named after a role", `agent = "analyst"`, "agent", "analyst", "analyst"},
		{"other agent, no role", `agent = "gpt"`, "agent", "writer", "gpt"},
		{"other agent with a role", "agent = \"gpt\"\n    role = \"critic\"", "agent", "critic", "gpt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "agent \"gpt\" { plugin = \"builtin:template\" }\nagent \"analyst\" { plugin = \"builtin:template\" }\n" +
				"intent \"i\" {\n  hypothesis \"h\" {\n    " + tt.body + "\n  }\n}\n"
			rs, diags := Parse("h.hcl", []byte(src))
			require.False(t, diags.HasErrors(), diags.Error())
			action, role, agent := rs.Intent("i").Hypotheses[0].Runs()
			assert.Equal(t, []string{tt.action, tt.role, tt.agent}, []string{action, role, agent})
		})
	}
}
