package openai

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// TestOverThePluginProtocol serves the agent over the real plugin wire:
// output and usage arrive intact, error kinds survive, the key does not.
func TestOverThePluginProtocol(t *testing.T) {
	events := streamEvents("gpt-4o-mini-2024-07-18", split(criticAnswer, 5), "stop", true, 40, 12)
	f := newFake(t, fakeReply{events: events}, fakeReply{status: 401, echoAuth: true},
		fakeReply{body: completionBody("m", "Here you go:\n```json\n{\"status\":\"PASS\",}\n```", "stop", 1, 1)})
	local := newTestAgent(t, f, "")
	remote := sdktest.Agent(t, local.Agent)

	diags, err := remote.Configure(context.Background(), json.RawMessage(`{"base_url":"`+f.baseURL()+`","stream":true,"max_retries":0}`))
	require.NoError(t, err)
	require.False(t, diags.HasErrors(), "%+v", diags)

	resp, err := remote.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)
	assert.JSONEq(t, criticAnswer, string(resp.Output))
	assert.Equal(t, sdk.Usage{PromptTokens: 40, CompletionTokens: 12, Model: "gpt-4o-mini-2024-07-18"}, resp.Usage)
	assert.Contains(t, f.requests()[0].req.Messages[1].Content, "- [3f2a9c1d8e7b] commit · gitlab (tier 1) · alice",
		"context records cross the wire into the prompt")

	_, err = remote.Invoke(context.Background(), criticRequest())
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrUnauthorized)
	assert.NotContains(t, err.Error(), local.apiKey)
	assert.Contains(t, err.Error(), "Bearer [REDACTED]")

	resp, err = remote.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)
	assert.Equal(t, "Here you go:\n```json\n{\"status\":\"PASS\",}\n```", string(resp.Output), "almost-JSON reaches the host's repair routine intact")
}
