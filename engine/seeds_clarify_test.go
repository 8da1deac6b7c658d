package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/plugins/template"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reasoning-structure document processes every intent at or above the
// 0.3 threshold, each with its own hypotheses: a question that asks two
// things is answered twice, never asked back, and a skipped intent
// conflicts with nothing.
func TestSeedMultipleIntentsAreNotAmbiguous(t *testing.T) {
	p := defaultPlanner(t)
	for _, tt := range []struct {
		name       string
		intents    []engine.Intent
		hypotheses int
	}{
		{"commits 0.9 and issues 0.7: 6 hypotheses", []engine.Intent{{Type: "query_commits", Confidence: 0.9}, {Type: "query_issues", Confidence: 0.7}}, 6},
		{"example 2: commits 0.9 and analytics 0.8: 7 hypotheses", []engine.Intent{{Type: "query_commits", Confidence: 0.9}, {Type: "query_analytics", Confidence: 0.8}}, 7},
		{"example 4: conversation 0.2 skipped", []engine.Intent{{Type: "query_commits", Confidence: 0.9}, {Type: "conversation", Confidence: 0.2}}, 3},
		{"a command at 0.2 conflicts with nothing", []engine.Intent{{Type: "request_help", Confidence: 0.9}, {Type: "command_action", Confidence: 0.2}}, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := plan(t, p, engine.Request{Intents: tt.intents})
			assert.Len(t, got.Reasoning.Hypotheses, tt.hypotheses)
			assert.Empty(t, got.Ambiguities)
		})
	}
}

// The research-loop document's ClarificationAgent.generate_options(query,
// ambiguity_type) -> dict: the role's input carries exactly those two
// names (and, beside them, what the engine knows), and the offline agent
// answers with options for the real ambiguity type.
func TestSeedClarificationAgent(t *testing.T) {
	in := sdk.ClarificationInput{Query: "please close it", AmbiguityType: engine.AmbiguityMissingEntity, Entity: "targets"}
	raw, err := json.Marshal(in)
	require.NoError(t, err)
	var keys map[string]any
	require.NoError(t, json.Unmarshal(raw, &keys))
	assert.Equal(t, "please close it", keys["query"])
	assert.Equal(t, "missing_entity", keys["ambiguity_type"])

	for _, amb := range []engine.Ambiguity{
		{Type: engine.AmbiguityMissingEntity, Entity: "targets", Message: "command_action needs targets, and the question names none"},
		{Type: engine.AmbiguityMultipleMatches, Entity: "authors", Message: `"Jeff" matches 2 people in git`, Candidates: []string{"Jeff King", "Jeff Hostetler"}},
		{Type: engine.AmbiguityIntent, Message: "the question reads as request_help and as command_action", Candidates: []string{"request_help", "command_action"}},
	} {
		t.Run(amb.Type, func(t *testing.T) {
			input, err := json.Marshal(sdk.ClarificationInput{Query: "q", AmbiguityType: amb.Type, Entity: amb.Entity, Message: amb.Message, Candidates: amb.Candidates})
			require.NoError(t, err)
			resp, err := template.New().Invoke(context.Background(), sdk.InvokeRequest{Role: sdk.RoleClarification, Input: input})
			require.NoError(t, err)
			var out map[string]any
			require.NoError(t, json.Unmarshal(resp.Output, &out))
			assert.NotEmpty(t, out["question"])
			assert.Len(t, out["options"], len(amb.Candidates), "one option per candidate")
		})
	}
}
