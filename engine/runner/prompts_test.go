package runner

import (
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultPromptsRender renders every default prompt with every input
// shape it can get, so a template error shows here and not mid-run.
func TestDefaultPromptsRender(t *testing.T) {
	rs, diags := rules.LoadFS(examples.DefaultRules())
	require.False(t, diags.HasErrors(), diags.Error())
	r := newRun(New(nil, nil, Options{Clock: fixedClock}), &engine.Plan{Query: "q", Mode: "strict", Policy: engine.NewPlanner(rs).Policy("strict")})
	review := &sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "no dates", Suggestions: []string{"add the span"}, LogicalGaps: []string{"period"}}
	span := &sdk.TimeRange{Since: fixedNow.Add(-7 * 24 * time.Hour), Until: fixedNow}
	tests := []struct {
		role  string
		input any
		want  []string
	}{
		{sdk.RoleAnalyst, sdk.AnalystInput{Query: "q", Mode: "strict", Task: "t", Temporal: span}, []string{"AnalystAgentPrompt", "Task: t", "Period: 2026-11-03 to 2026-11-10"}},
		{sdk.RoleAnalyst, sdk.AnalystInput{Query: "q", Draft: "old draft", Review: review}, []string{"AnalystRevisePrompt", "REJECT: no dates", "- suggestion: add the span", "- logical gap: period", "old draft"}},
		{sdk.RoleCritic, sdk.CriticInput{Draft: "the draft", Query: "q", Mode: "strict"}, []string{"CriticAgentPrompt", "the draft", "strict mode"}},
		{sdk.RoleWriter, sdk.WriterInput{Query: "q", Draft: "d", Review: review, Mode: "strict"}, []string{"WriterAgentPrompt", "verdict was REJECT"}},
		{sdk.RoleWriter, sdk.WriterInput{Query: "q", Draft: "d", Mode: "strict"}, []string{"WriterAgentPrompt"}},
		{sdk.RoleClarification, sdk.ClarificationInput{Query: "q", AmbiguityType: "ambiguous"}, []string{"ClarificationAgentPrompt", "(ambiguous)"}},
		{sdk.RoleClarification, sdk.ClarificationInput{Query: "q", AmbiguityType: "multiple_matches", Entity: "authors", Message: `"Jeff" matches 2 people in git`,
			Candidates: []string{"Jeff King", "Jeff Hostetler"}}, []string{`(multiple_matches: "Jeff" matches 2 people in git)`, "The user may mean: Jeff King; Jeff Hostetler."}},
	}
	for _, tt := range tests {
		got, err := r.instructions(tt.role, promptData{Query: "q", Mode: "strict", Role: tt.role, Task: "t", Input: tt.input, Records: commits(2)})
		require.NoError(t, err, tt.role)
		for _, w := range tt.want {
			assert.Contains(t, got, w, tt.role)
		}
	}
}

func TestBuiltInPromptWithoutBlock(t *testing.T) {
	r := newRun(New(nil, nil, Options{}), &engine.Plan{Query: "why?", Mode: "discovery", Policy: engine.NewPlanner(&rules.Ruleset{}).Policy("discovery")})
	got, err := r.instructions(sdk.RoleCritic, promptData{Query: "why?", Mode: "discovery"})
	require.NoError(t, err)
	assert.Equal(t, `You are the critic. Review the draft for the question "why?" in discovery mode and answer with JSON matching the schema.`, got)
}
