package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConversationReachesTheAgents(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	conv := []sdk.Turn{{Query: "what changed last week?", Answer: "2 commits"}}
	_, err := New(gitSource(commits(2)), agents, Options{Clock: fixedClock, Conversation: conv}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	for _, role := range []string{sdk.RoleAnalyst, sdk.RoleCritic, sdk.RoleWriter} {
		reqs := agents.requests(role)
		require.NotEmpty(t, reqs, role)
		var in struct {
			Conversation []sdk.Turn `json:"conversation"`
		}
		require.NoError(t, json.Unmarshal(reqs[0].Input, &in))
		assert.Equal(t, conv, in.Conversation, role)
	}
}

func TestFollowUpLineOpensTheUnderstoodBlock(t *testing.T) {
	fu := &engine.FollowUp{Session: "t1", Turn: 2, Query: "what changed last week?", Carried: []engine.Constraint{
		{Key: engine.CarriedIntent, Value: "query_commits"},
		{Key: "dates", Value: "2026-11-09..2026-11-15", Phrase: "the week before", Reason: "from 2026-11-16 – 2026-11-22"},
		{Key: "paths", Value: "hclwrite"},
		{Key: "paths", Value: "hclsyntax"},
		{Key: "dates", Phrase: "before that", Reason: "the earlier question has no closed period to move"},
	}}
	withAnswers := &Result{Plan: &engine.Plan{Interpretation: &engine.Interpretation{FollowUp: fu}},
		Answers: []Answer{{Intent: "query_commits", Understood: "Commits in hcl", Result: "2 commits"}}}
	want := "- Follow-up of “what changed last week?” (session t1, turn 2): took intent query_commits; " +
		"dates 2026-11-09..2026-11-15 (the week before, from 2026-11-16 – 2026-11-22); paths hclwrite, hclsyntax; " +
		"before that: not applied, the earlier question has no closed period to move\n"
	report := Compose(withAnswers)
	assert.True(t, strings.HasPrefix(report, "Understood:\n"+want+"- Commits in hcl: 2 commits\n"), report)

	none := &Result{Plan: withAnswers.Plan, Report: "# fallback\n"}
	once := Compose(none)
	assert.Equal(t, "Understood:\n"+want+"\n# fallback\n", once)
	none.Report = once
	assert.Equal(t, once, Compose(none), "composing again does not repeat it")

	fu.Carried = []engine.Constraint{{Key: engine.CarriedIntent, Value: "query_commits"}, {Key: engine.CarriedIntent, Value: "query_analytics"}}
	assert.Contains(t, Compose(withAnswers), "took intents query_commits, query_analytics\n")

	fu.Carried = nil
	assert.Contains(t, Compose(withAnswers), "(session t1, turn 2): nothing carried over")
	assert.NotContains(t, Compose(&Result{Plan: &engine.Plan{}, Report: "x\n"}), "Follow-up", "not a follow-up")
}
