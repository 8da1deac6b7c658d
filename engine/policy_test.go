package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const policyRules = `
loop { workers = 2 }
mode "strict" {
  keep     = "item.tier == 1"
  on_empty = "error"
}
mode "monitor" { compare = [1, 5] }
tier "git" {
  tier = 1
  type = "official"
}
agent "writer" {
  plugin  = "builtin:template"
  timeout = "20ms"
}
check "records" {
  assert  = "len(step.records) > 0"
  on_fail = "refine"
  refine { drop_filters = ["dates"] }
}
check "added" {
  assert  = "step.output != ''"
  on_fail = "refine"
  refine { op = "ADD" }
}
prompt "writer" { template = "Write about {{.Query}}." }
`

func TestPlanCarriesThePolicyOfItsMode(t *testing.T) {
	p := parsePlanner(t, policyRules)
	tests := []struct {
		mode string
		want *engine.Mode
	}{
		{"strict", &engine.Mode{Name: "strict", Required: true}},
		{"monitor", &engine.Mode{Name: "monitor", Compare: []int{1, 5}}},
		{"undefined", nil},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			pol := p.Policy(tt.mode)
			if tt.want == nil {
				assert.Nil(t, pol.Mode)
			} else {
				require.NotNil(t, pol.Mode)
				assert.Equal(t, []any{tt.want.Name, tt.want.Required, tt.want.Compare}, []any{pol.Mode.Name, pol.Mode.Required, pol.Mode.Compare})
			}
			assert.Equal(t, engine.Limits{MaxPasses: 3, TTL: time.Minute, RefinePerStep: 3, RefineTotal: 10, Workers: 2, MaxRecords: 1000}, pol.Limits)
			assert.Equal(t, map[string]engine.Tier{"git": {Tier: 1, Type: "official"}}, pol.Tiers)
			assert.Equal(t, map[string]engine.Agent{"writer": {Timeout: 20 * time.Millisecond}}, pol.Agents)
			require.Len(t, pol.Checks, 2)
			assert.Equal(t, engine.Refine{Op: "MODIFY", DropFilters: []string{"dates"}}, *pol.Checks[0].Refine)
			assert.Equal(t, engine.Refine{Op: "ADD"}, *pol.Checks[1].Refine)
		})
	}
	plan, err := p.Plan(t.Context(), engine.Request{Query: "q", Mode: "strict", Intents: []engine.Intent{}})
	require.NoError(t, err)
	assert.Same(t, p.Policy("strict"), plan.Policy, "plans share their mode's policy")
}

func TestPolicyPrompts(t *testing.T) {
	pol := parsePlanner(t, policyRules).Policy("strict")
	tests := []struct {
		role engine.Role
		want string
	}{
		{engine.RoleWriter, "Write about why?."},
		{engine.RoleCritic, `You are the critic. Review the draft for the question "why?" in strict mode and answer with JSON matching the schema.`},
	}
	for _, tt := range tests {
		tmpl, err := pol.Prompt(tt.role)
		require.NoError(t, err)
		var b strings.Builder
		require.NoError(t, tmpl.Execute(&b, map[string]string{"Query": "why?", "Mode": "strict"}))
		assert.Equal(t, tt.want, b.String(), tt.role)
	}
}

func TestCheckMode(t *testing.T) {
	p := parsePlanner(t, policyRules)
	assert.NoError(t, p.CheckMode(""), "the planner chooses")
	assert.NoError(t, p.CheckMode("monitor"))
	assert.EqualError(t, p.CheckMode("loose"), `mode "loose" is not defined (modes: strict, monitor)`)
}
