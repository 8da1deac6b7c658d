package rules

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const validatorAgent = "agent \"validator\" {\n  plugin = \"builtin:template\"\n}\n"

func TestValidatorBlock(t *testing.T) {
	src := validatorAgent + "validator {\n  agent = \"validator\"\n  when  = \"pass < max_passes && validation.failed == 0\"\n  steps = \"step.action == 'retrieve'\"\n}\n"
	rs, diags := Parse("v.hcl", []byte(src))
	require.Empty(t, diags)
	v := rs.Validator
	require.NotNil(t, v)
	assert.Equal(t, "validator", v.Agent)
	ok, err := v.When.Eval(&cond.PassEnv{Pass: 1, MaxPasses: 3})
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = v.Steps.Eval(&cond.StepEnv{Step: cond.Step{Action: "rank"}})
	require.NoError(t, err)
	assert.False(t, ok)

	none, diags := Parse("n.hcl", []byte(validatorAgent))
	require.Empty(t, diags)
	assert.Nil(t, none.Validator, "no block, no validator")
}

func TestValidatorBlockErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, check, summary string
		line                      int
	}{
		{"unknown agent", "validator {\n  agent = \"judge\"\n}\n", CheckUnknownReference, `Unknown agent "judge"`, 5},
		{"missing agent", "validator {\n}\n", CheckSchema, `Missing required argument`, 4},
		{"when over the step", "validator {\n  agent = \"validator\"\n  when  = \"step.action == 'retrieve'\"\n}\n", CheckExpr, `Invalid condition in "when"`, 6},
		{"steps not bool", "validator {\n  agent = \"validator\"\n  steps = \"step.id\"\n}\n", CheckExpr, `Invalid condition in "steps"`, 6},
		{"two blocks", "validator {\n  agent = \"validator\"\n}\nvalidator {\n  agent = \"validator\"\n}\n", CheckDuplicateName, "Duplicate validator block", 7},
		{"unknown attribute", "validator {\n  agent   = \"validator\"\n  timeout = \"5s\"\n}\n", CheckSchema, "Unsupported argument", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Parse("v.hcl", []byte(validatorAgent+tc.src))
			require.True(t, diags.HasErrors())
			d := diags[0]
			assert.Equal(t, hcl.DiagError, d.Severity)
			assert.Equal(t, tc.check, CheckName(d))
			assert.Contains(t, d.Summary, tc.summary)
			assert.Equal(t, tc.line, d.Subject.Start.Line, "positioned at the problem")
		})
	}
}
