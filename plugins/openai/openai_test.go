package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

const criticSchema = `{"type":"object","additionalProperties":false,"required":["status","critique","suggestions","mode_compliance","logical_gaps"],` +
	`"properties":{"status":{"type":"string","enum":["PASS","WARN","REJECT"]},"critique":{"type":"string"},` +
	`"suggestions":{"type":"array","items":{"type":"string"}},"mode_compliance":{"type":"string"},"logical_gaps":{"type":"array","items":{"type":"string"}}}}`

const criticAnswer = `{"status":"WARN","critique":"Only two commits support the claim.","suggestions":["Cite more records"],"mode_compliance":"符合","logical_gaps":[]}`

func criticRequest() sdk.InvokeRequest {
	return sdk.InvokeRequest{
		Role:         sdk.RoleCritic,
		Instructions: "You are the critic. Review the draft.",
		Input:        json.RawMessage(`{"draft": "3 commits changed payments", "query": "what changed?", "mode": "strict"}`),
		Context: []sdk.Record{{
			ID: "3f2a9c1d8e7b", Source: "gitlab", Kind: sdk.KindCommit, Title: "Fix token refresh", Body: "Longer\nbody text",
			URL: "https://gitlab.example.com/c/3f2a9c1d", Author: "alice", Time: time.Date(2026, 11, 4, 9, 0, 0, 0, time.UTC), Tier: 1,
			Fields: map[string]any{"project": "acme/payments", "labels": []string{"bug", "p1"}},
		}},
		Schema: json.RawMessage(criticSchema),
	}
}

func TestInvokeNonStreamed(t *testing.T) {
	f := newFake(t, fakeReply{body: completionBody("gpt-4o-mini-2024-07-18", criticAnswer, "stop", 812, 64)})
	a := newTestAgent(t, f, `{"model":"gpt-4o-mini","temperature":0.2,"max_tokens":900}`)

	resp, err := a.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)
	assert.JSONEq(t, criticAnswer, string(resp.Output))
	assert.Equal(t, sdk.Usage{PromptTokens: 812, CompletionTokens: 64, Model: "gpt-4o-mini-2024-07-18"}, resp.Usage)

	calls := f.requests()
	require.Len(t, calls, 1)
	h, body := calls[0].header, calls[0].body
	assert.Equal(t, "Bearer "+a.apiKey, h.Get("Authorization"))
	assert.Equal(t, "application/json", h.Get("Content-Type"))
	assert.Equal(t, "application/json", h.Get("Accept"))
	assert.Equal(t, "gpt-4o-mini", body["model"])
	assert.InDelta(t, 0.2, body["temperature"], 1e-9)
	assert.EqualValues(t, 900, body["max_tokens"])
	assert.NotContains(t, body, "stream", "stream is only sent when streaming")
	assert.NotContains(t, body, "stream_options")

	msgs := calls[0].req.Messages
	require.Len(t, msgs, 2)
	assert.Equal(t, chatMessage{Role: "system", Content: "You are the critic. Review the draft."}, msgs[0], "with json_schema the prompt is left alone")
	assert.Equal(t, "user", msgs[1].Role)
	assert.Contains(t, msgs[1].Content, `{"draft":"3 commits changed payments","query":"what changed?","mode":"strict"}`)
	assert.Contains(t, msgs[1].Content, "Context records (1):\n- [3f2a9c1d8e7b] commit · gitlab (tier 1) · alice · 2026-11-04T09:00:00Z · https://gitlab.example.com/c/3f2a9c1d\n")
	assert.Contains(t, msgs[1].Content, "  body: Longer body text\n  fields: labels=bug,p1 project=acme/payments\n")

	rf := body["response_format"].(map[string]any)
	assert.Equal(t, "json_schema", rf["type"])
	js := rf["json_schema"].(map[string]any)
	assert.Equal(t, "critic_output", js["name"])
	assert.Equal(t, true, js["strict"])
	schema, _ := json.Marshal(js["schema"])
	assert.JSONEq(t, criticSchema, string(schema))
}

func TestInvokeStreamed(t *testing.T) {
	events := streamEvents("gpt-4o-mini-2024-07-18", split(criticAnswer, 7), "stop", true, 812, 64)
	f := newFake(t, fakeReply{events: events})
	a := newTestAgent(t, f, `{"stream":true}`)

	resp, err := a.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)
	assert.JSONEq(t, criticAnswer, string(resp.Output), "chunks are reassembled in order")
	assert.Equal(t, sdk.Usage{PromptTokens: 812, CompletionTokens: 64, Model: "gpt-4o-mini-2024-07-18"}, resp.Usage, "usage comes from the last chunk")

	calls := f.requests()
	require.Len(t, calls, 1)
	assert.Equal(t, true, calls[0].body["stream"])
	assert.Equal(t, map[string]any{"include_usage": true}, calls[0].body["stream_options"])
	assert.Equal(t, "text/event-stream", calls[0].header.Get("Accept"))
}

func TestInvokeStreamTruncated(t *testing.T) {
	events := streamEvents("m", split(criticAnswer, 9)[:3], "", false, 0, 0)
	f := newFake(t, fakeReply{events: events, noDone: true})
	a := newTestAgent(t, f, `{"stream":true}`)

	_, err := a.Invoke(context.Background(), criticRequest())
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrUnavailable)
	assert.Contains(t, err.Error(), "truncated stream")
	assert.Contains(t, err.Error(), "4 chunks and 27 bytes of content, no finish_reason and no [DONE]")
	assert.Len(t, f.requests(), 1, "a broken stream is not resent: the host decides")
}

func TestInvokeServerIgnoresStream(t *testing.T) {
	f := newFake(t, fakeReply{body: completionBody("llama3.1", criticAnswer, "stop", 5, 6)})
	a := newTestAgent(t, f, `{"stream":true}`)
	resp, err := a.Invoke(context.Background(), criticRequest())
	require.NoError(t, err, "a JSON answer to a streaming request is read as JSON")
	assert.JSONEq(t, criticAnswer, string(resp.Output))
}

func TestInvokeOutputs(t *testing.T) {
	tests := []struct {
		name     string
		reply    fakeReply
		want     string // the output, when no error
		wantRaw  string // the output, when it is not JSON
		wantKind sdk.ErrorKind
		wantMsg  string
	}{
		{name: "JSON content", reply: fakeReply{body: completionBody("m", criticAnswer, "stop", 1, 1)}, want: criticAnswer},
		{name: "JSON content with whitespace", reply: fakeReply{body: completionBody("m", "\n  "+criticAnswer+"\n", "stop", 1, 1)}, want: criticAnswer},
		{name: "almost-JSON is passed on as is for the host to repair",
			reply: fakeReply{body: completionBody("m", "```json\n{\"status\":\"PASS\"}\n```", "stop", 1, 1)}, wantRaw: "```json\n{\"status\":\"PASS\"}\n```"},
		{name: "cut off at max_tokens", reply: fakeReply{body: completionBody("m", `{"status":"WA`, "length", 1, 900)},
			wantKind: sdk.KindBadRequest, wantMsg: `cut off at max_tokens (finish_reason "length", 900 completion tokens)`},
		{name: "finish_reason length with complete JSON", reply: fakeReply{body: completionBody("m", criticAnswer, "length", 1, 900)}, want: criticAnswer},
		{name: "streamed cut off at max_tokens", reply: fakeReply{events: streamEvents("m", []string{`{"status":`}, "length", true, 3, 900)},
			wantKind: sdk.KindBadRequest, wantMsg: "raise max_tokens"},
		{name: "content filter", reply: fakeReply{body: completionBody("m", "", "content_filter", 1, 0)},
			wantKind: sdk.KindBadRequest, wantMsg: "content filter"},
		{name: "refusal", reply: fakeReply{body: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`},
			wantKind: sdk.KindBadRequest, wantMsg: "the model refused: I can't help with that."},
		{name: "empty answer", reply: fakeReply{body: completionBody("m", "  ", "stop", 1, 0)},
			wantKind: sdk.KindUnknown, wantMsg: `empty answer (finish_reason "stop")`},
		{name: "no choices", reply: fakeReply{body: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[]}`},
			wantKind: sdk.KindUnknown, wantMsg: "no choices"},
		{name: "not a completion", reply: fakeReply{body: `<html>gateway</html>`},
			wantKind: sdk.KindUnknown, wantMsg: "not a chat.completion object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.reply)
			a := newTestAgent(t, f, `{"stream":`+map[bool]string{true: "true", false: "false"}[tt.reply.events != nil]+`}`)
			resp, err := a.Invoke(context.Background(), criticRequest())
			if tt.wantMsg != "" {
				require.Error(t, err)
				assert.Equal(t, tt.wantKind, sdk.KindOf(err), err.Error())
				assert.Contains(t, err.Error(), tt.wantMsg)
				return
			}
			require.NoError(t, err)
			if tt.wantRaw != "" {
				assert.Equal(t, tt.wantRaw, string(resp.Output))
				return
			}
			assert.JSONEq(t, tt.want, string(resp.Output))
		})
	}
}

func TestSchemaFallbackToJSONObject(t *testing.T) {
	rejected := fakeReply{status: 400, body: apiErrorBody("Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", "invalid_request_error", "response_format", "")}
	f := newFake(t, rejected, fakeReply{body: completionBody("m", criticAnswer, "stop", 1, 1)})
	a := newTestAgent(t, f, "")

	resp, err := a.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)
	assert.JSONEq(t, criticAnswer, string(resp.Output))
	_, err = a.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)

	calls := f.requests()
	require.Len(t, calls, 3, "one refusal, then json_object for this and later calls")
	assert.Equal(t, "json_schema", calls[0].req.ResponseFormat.Type)
	for _, c := range calls[1:] {
		assert.Equal(t, &responseFormat{Type: "json_object"}, c.req.ResponseFormat)
		system := c.req.Messages[0].Content
		assert.True(t, strings.HasPrefix(system, "You are the critic. Review the draft.\n\nRespond with a single JSON object"), system)
		assert.Contains(t, system, `"mode_compliance":{"type":"string"}`, "the schema is spelled out in the prompt")
	}
	assert.Empty(t, a.waits.Recorded(), "a refusal is not a retry")
}

func TestFallbackDownToNoResponseFormat(t *testing.T) {
	noSchema := fakeReply{status: 400, body: apiErrorBody("json_schema is not supported", "invalid_request_error", "response_format", "")}
	noObject := fakeReply{status: 400, body: apiErrorBody("'response_format.type' must be 'json_schema' or 'text'", "invalid_request_error", "", "")}
	f := newFake(t, noSchema, noObject, ok)
	a := newTestAgent(t, f, "")
	_, err := a.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)
	_, err = a.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)
	calls := f.requests()
	require.Len(t, calls, 4)
	assert.Equal(t, "json_schema", calls[0].req.ResponseFormat.Type)
	assert.Equal(t, "json_object", calls[1].req.ResponseFormat.Type)
	assert.Nil(t, calls[2].req.ResponseFormat)
	assert.Nil(t, calls[3].req.ResponseFormat, "the refusals are remembered")
	assert.Contains(t, calls[3].req.Messages[0].Content, "It must match this JSON Schema")
}

func TestFormatRejectedWithoutFallbackLeft(t *testing.T) {
	f := newFake(t, fakeReply{status: 400, body: apiErrorBody("response_format is not supported", "invalid_request_error", "response_format", "")})
	a := newTestAgent(t, f, "")
	_, err := a.Invoke(context.Background(), criticRequest())
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrBadRequest)
	assert.Len(t, f.requests(), 3, "json_schema, json_object, then none; the last refusal is returned")
}

func TestResponseFormatConfig(t *testing.T) {
	tests := []struct {
		config, wantType string
		schema           bool
		wantSchemaInText bool
	}{
		{`{"response_format":"json_schema"}`, "json_schema", true, false},
		{`{"response_format":"json_schema"}`, "json_object", false, false},
		{`{"response_format":"json_object"}`, "json_object", true, true},
		{`{"response_format":"none"}`, "", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.config+tt.wantType, func(t *testing.T) {
			f := newFake(t)
			a := newTestAgent(t, f, tt.config)
			req := criticRequest()
			if !tt.schema {
				req.Schema = nil
			}
			_, err := a.Invoke(context.Background(), req)
			require.NoError(t, err)
			got := f.requests()[0].req
			if tt.wantType == "" {
				assert.Nil(t, got.ResponseFormat)
			} else {
				assert.Equal(t, tt.wantType, got.ResponseFormat.Type)
			}
			assert.Equal(t, tt.wantSchemaInText, strings.Contains(got.Messages[0].Content, "JSON Schema"))
		})
	}
}

func TestDefaultSystemPromptAndContextBudget(t *testing.T) {
	f := newFake(t)
	a := newTestAgent(t, f, `{"max_context_chars":300}`)
	req := sdk.InvokeRequest{Role: "analyst"}
	for i := range 10 {
		req.Context = append(req.Context, sdk.Record{ID: strings.Repeat("x", 10) + string(rune('a'+i)), Source: "git", Kind: "commit", Title: strings.Repeat("t", 50)})
	}
	_, err := a.Invoke(context.Background(), req)
	require.NoError(t, err)
	msgs := f.requests()[0].req.Messages
	assert.Contains(t, msgs[0].Content, "You are the analyst agent of nous")
	assert.Contains(t, msgs[0].Content, "Respond with a single JSON object")
	assert.Contains(t, msgs[1].Content, "Input (JSON):\n{}\n")
	assert.Contains(t, msgs[1].Content, "Context records (10):\n")
	assert.Contains(t, msgs[1].Content, "(8 more records left out to fit the prompt budget)")
}

func TestDescribe(t *testing.T) {
	f := newFake(t)
	a := newTestAgent(t, f, `{"model":"llama3.1"}`)
	info, err := a.Describe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "openai", info.Name)
	assert.Equal(t, []string{"llama3.1"}, info.Models)
	assert.Equal(t, []string{"analyst", "clarification", "critic", "validator", "writer"}, info.Roles)
	assert.True(t, json.Valid(info.ConfigSchema))
	raw, _ := json.Marshal(info)
	assert.NotContains(t, string(raw), a.apiKey)
}
