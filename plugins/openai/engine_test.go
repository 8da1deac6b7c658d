package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/rules"
)

// TestWithTheExecutor runs a question through the default rules and the
// real executor with this agent in every role, against a fake model that
// answers each role in its schema: the executor's own schema (adapted to
// strict mode) and prompts reach the server, the answers pass its checks.
func TestWithTheExecutor(t *testing.T) {
	answers := map[string]string{
		"analyst_output": `{"status":"DRAFT_READY","new_queries":[],"draft":"Commit 3f2a9c1d8e7b fixed the token refresh.\n\n## Sources\n- 3f2a9c1d8e7b","reasoning_chain":"read one commit"}`,
		"critic_output":  `{"status":"PASS","critique":"Backed by the commit.","suggestions":[],"mode_compliance":"符合","logical_gaps":[]}`,
		"writer_output":  `{"final_report":"# Payments\n\nCommit 3f2a9c1d8e7b fixed the token refresh.","sources_used":["https://gitlab.example.com/c/3f2a9c1d"],"confidence_level":"High"}`,
	}
	f := newFake(t)
	f.respond = func(req chatRequest) fakeReply {
		if req.ResponseFormat == nil || req.ResponseFormat.JSONSchema == nil {
			return fakeReply{status: 400, body: apiErrorBody("expected json_schema", "invalid_request_error", "response_format", "")}
		}
		var schema struct {
			Required             []string `json:"required"`
			AdditionalProperties *bool    `json:"additionalProperties"`
			Properties           map[string]json.RawMessage
		}
		if json.Unmarshal(req.ResponseFormat.JSONSchema.Schema, &schema) != nil || len(schema.Required) != len(schema.Properties) ||
			schema.AdditionalProperties == nil || *schema.AdditionalProperties {
			return fakeReply{status: 400, body: apiErrorBody("Invalid schema for response_format: all properties must be required", "invalid_request_error", "response_format", "")}
		}
		answer, ok := answers[req.ResponseFormat.JSONSchema.Name]
		if !ok {
			return fakeReply{status: 400, body: apiErrorBody("unexpected role "+req.ResponseFormat.JSONSchema.Name, "invalid_request_error", "", "")}
		}
		return fakeReply{body: completionBody("gpt-4o-mini", answer, "stop", 100, 20)}
	}
	a := newTestAgent(t, f, "")

	rs, diags := rules.Load("../../examples/rules/default")
	require.False(t, diags.HasErrors(), diags.Error())
	plan, err := engine.NewPlanner(rs).Plan(context.Background(), engine.Request{Query: "what commits changed payments last week?"})
	require.NoError(t, err)
	res, err := runner.New(plugintest.Records(criticRequest().Context), plugintest.OneAgent{Agent: a.Agent}, runner.Options{}).Run(context.Background(), plan)
	require.NoError(t, err)
	require.NotNil(t, res.Answer, "status %s, error %q", res.Status, res.Error)
	assert.Equal(t, "High", res.Answer.ConfidenceLevel)
	assert.Contains(t, res.Report, "3f2a9c1d8e7b")

	calls := f.requests()
	require.NotEmpty(t, calls)
	for _, c := range calls {
		assert.Equal(t, "json_schema", c.req.ResponseFormat.Type, "no fallback was needed: the executor's schemas were made strict")
		assert.NotEmpty(t, strings.TrimSpace(c.req.Messages[0].Content), "the rules' prompt is the system message")
		assert.Contains(t, c.req.Messages[1].Content, "- [3f2a9c1d8e7b] commit")
	}
}
