package host2plugin_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgentDescribeAndConfigure(t *testing.T) {
	agent := sdktest.Agent(t, &fakeAgent{
		info: sdk.AgentInfo{Name: "template", Version: "0.3.0", SDKVersion: "0.9.0",
			Roles: []string{sdk.RoleAnalyst, sdk.RoleWriter}, Models: []string{"gpt-x"}},
		configure: func(_ context.Context, config json.RawMessage) (sdk.Diagnostics, error) {
			if string(config) == `{}` {
				return sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "Missing model", Path: "model"}}, nil
			}
			return nil, nil
		},
	})
	ctx := context.Background()

	info, err := agent.Describe(ctx)
	require.NoError(t, err)
	assert.Equal(t, sdk.AgentInfo{Name: "template", Version: "0.3.0", SDKVersion: "0.9.0",
		Roles: []string{sdk.RoleAnalyst, sdk.RoleWriter}, Models: []string{"gpt-x"}}, info,
		"a plugin's own SDKVersion is kept")

	diags, err := agent.Configure(ctx, json.RawMessage(`{}`))
	require.NoError(t, err)
	assert.Equal(t, sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "Missing model", Path: "model"}}, diags)

	diags, err = agent.Configure(ctx, json.RawMessage(`{"model":"gpt-x"}`))
	require.NoError(t, err)
	assert.Empty(t, diags)
}

func TestInvokeWithSchemaContextAndUsage(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["final_report"]}`)
	input, err := json.Marshal(sdk.WriterInput{Query: "what changed in payments?", Draft: "Two fixes.", Mode: "discovery"})
	require.NoError(t, err)
	contextRecords := manyRecords(3)
	var got sdk.InvokeRequest
	agent := sdktest.Agent(t, &fakeAgent{invoke: func(_ context.Context, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
		got = req
		out, err := json.Marshal(sdk.WriterOutput{FinalReport: "Two payment fixes landed.", SourcesUsed: []string{req.Context[0].ID}, ConfidenceLevel: "High"})
		return sdk.InvokeResponse{Output: out, Usage: sdk.Usage{PromptTokens: 812, CompletionTokens: 64, Model: "gpt-x"}}, err
	}})
	req := sdk.InvokeRequest{
		Role:         sdk.RoleWriter,
		Instructions: "Compose the final report.",
		Input:        input,
		Context:      contextRecords,
		Schema:       schema,
	}

	resp, err := agent.Invoke(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, req, got, "the request reaches the agent unchanged")
	var out sdk.WriterOutput
	require.NoError(t, json.Unmarshal(resp.Output, &out))
	assert.Equal(t, sdk.WriterOutput{FinalReport: "Two payment fixes landed.", SourcesUsed: []string{"rec-00000"}, ConfidenceLevel: "High"}, out)
	assert.Equal(t, sdk.Usage{PromptTokens: 812, CompletionTokens: 64, Model: "gpt-x"}, resp.Usage)
}

func TestInvokeRejectsUnsupportedContextFieldsBeforeSending(t *testing.T) {
	called := false
	agent := sdktest.Agent(t, &fakeAgent{invoke: func(context.Context, sdk.InvokeRequest) (sdk.InvokeResponse, error) {
		called = true
		return sdk.InvokeResponse{}, nil
	}})
	_, err := agent.Invoke(context.Background(), sdk.InvokeRequest{Context: []sdk.Record{
		{ID: "a"},
		{ID: "b", Fields: map[string]any{"score": uint8(3)}},
	}})
	require.ErrorIs(t, err, sdk.ErrBadRequest)
	assert.Contains(t, err.Error(), `context[1]: record "b": field "score": unsupported value type uint8`)
	assert.False(t, called)
}

func TestInvokePanicIsAClearError(t *testing.T) {
	agent := sdktest.Agent(t, &fakeAgent{invoke: func(context.Context, sdk.InvokeRequest) (sdk.InvokeResponse, error) {
		panic("template missing")
	}})
	_, err := agent.Invoke(context.Background(), sdk.InvokeRequest{})
	require.Error(t, err)
	assert.EqualError(t, err, "plugin panicked in Invoke: template missing")
}
