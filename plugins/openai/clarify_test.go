package openai

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/rules"
)

// TestClarifyWithTheExecutor asks a question back through the real
// executor with this agent as the clarification role: the model sees the
// ambiguity's type, message and candidates (in the rules' prompt and the
// input) and its options become the result's.
func TestClarifyWithTheExecutor(t *testing.T) {
	f := newFake(t)
	f.respond = func(req chatRequest) fakeReply {
		if req.ResponseFormat == nil || req.ResponseFormat.JSONSchema == nil || req.ResponseFormat.JSONSchema.Name != "clarification_output" {
			return fakeReply{status: 400, body: apiErrorBody("unexpected request", "invalid_request_error", "", "")}
		}
		return fakeReply{body: completionBody("gpt-4o-mini", `{"question":"Which Jeff: King or Hostetler?","options":["Jeff King","Jeff Hostetler"]}`, "stop", 80, 12)}
	}
	a := newTestAgent(t, f, "")
	rs, diags := rules.Load("../../examples/rules/default")
	require.False(t, diags.HasErrors(), diags.Error())
	plan, err := engine.NewPlanner(rs).Plan(context.Background(), engine.Request{Query: "what did Jeff change last week?"})
	require.NoError(t, err)
	amb := engine.Ambiguity{Type: engine.AmbiguityMultipleMatches, Entity: "authors", Message: `"Jeff" matches 2 people in gitlab`,
		Candidates: []string{"Jeff King", "Jeff Hostetler"}, Blocking: true}

	res, err := runner.New(plugintest.Records(nil), plugintest.OneAgent{Agent: a.Agent}, runner.Options{}).Clarify(context.Background(), plan, amb)
	require.NoError(t, err)
	assert.Equal(t, runner.ResultNeedsClarification, res.Status)
	require.NotNil(t, res.Clarification)
	assert.Equal(t, "Which Jeff: King or Hostetler?", res.Clarification.Question)
	assert.Equal(t, []string{"Jeff King", "Jeff Hostetler"}, res.Clarification.Options)
	assert.Empty(t, res.Caveats)

	calls := f.requests()
	require.Len(t, calls, 1, "one call, nothing else runs")
	system, user := calls[0].req.Messages[0].Content, calls[0].req.Messages[1].Content
	assert.Contains(t, system, `(multiple_matches: "Jeff" matches 2 people in gitlab)`)
	assert.Contains(t, system, "The user may mean: Jeff King; Jeff Hostetler.")
	assert.Contains(t, user, `"candidates":["Jeff King","Jeff Hostetler"]`)
	assert.Contains(t, user, `"entity":"authors"`)
}
