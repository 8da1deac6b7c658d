package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
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
		"validator_output": `{"steps":[{"step":"h0","verdict":"valid","issues":[],"deltas":[]},
			{"step":"h2","verdict":"uncertain","issues":["one commit may not be the whole week"],"deltas":[]}]}`,
	}
	f := newFake(t)
	f.respond = func(req chatRequest) fakeReply {
		if req.ResponseFormat == nil || req.ResponseFormat.JSONSchema == nil {
			return fakeReply{status: 400, body: apiErrorBody("expected json_schema", "invalid_request_error", "response_format", "")}
		}
		if !strictObject(req.ResponseFormat.JSONSchema.Schema) {
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

	var verdicts []history.Finding
	for _, fd := range res.History.Passes[0].Validation.Findings {
		if fd.Check == "validator" {
			verdicts = append(verdicts, fd)
		}
	}
	assert.Equal(t, []history.Finding{
		{Check: "validator", Step: "h0", Severity: history.SeverityPass},
		{Check: "validator", Step: "h2", Severity: history.SeverityWarn, Message: "one commit may not be the whole week"},
	}, verdicts, "the validator's structured answer became its findings")

	calls := f.requests()
	require.NotEmpty(t, calls)
	for _, c := range calls {
		assert.Equal(t, "json_schema", c.req.ResponseFormat.Type, "no fallback was needed: the executor's schemas were made strict")
		assert.NotEmpty(t, strings.TrimSpace(c.req.Messages[0].Content), "the rules' prompt is the system message")
		if c.req.ResponseFormat.JSONSchema.Name != "validator_output" { // the validator judges steps, not records
			assert.Contains(t, c.req.Messages[1].Content, "- [3f2a9c1d8e7b] commit")
		}
	}
}

// strictObject reports whether an object schema and every object nested
// in it (properties, array items) list all their properties as required
// and forbid others, as OpenAI's strict structured outputs demand.
func strictObject(raw json.RawMessage) bool {
	var schema struct {
		Type                 string                     `json:"type"`
		Required             []string                   `json:"required"`
		AdditionalProperties *bool                      `json:"additionalProperties"`
		Properties           map[string]json.RawMessage `json:"properties"`
		Items                json.RawMessage            `json:"items"`
	}
	if json.Unmarshal(raw, &schema) != nil {
		return false
	}
	switch schema.Type {
	case "array":
		return len(schema.Items) == 0 || strictObject(schema.Items)
	case "object":
		if len(schema.Required) != len(schema.Properties) || schema.AdditionalProperties == nil || *schema.AdditionalProperties {
			return false
		}
		for _, p := range schema.Properties {
			if !strictObject(p) {
				return false
			}
		}
	}
	return true
}
