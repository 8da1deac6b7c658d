package openai

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadStream(t *testing.T) {
	chunk := func(content string) string {
		return `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"` + content + `"},"finish_reason":null}]}`
	}
	const finishStop = `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
	tests := []struct {
		name        string
		stream      string
		wantContent string
		wantFinish  string
		wantErr     string
	}{
		{name: "plain", stream: "data: " + chunk("ab") + "\n\ndata: " + chunk("cd") + "\n\ndata: " + finishStop + "\n\ndata: [DONE]\n\n",
			wantContent: "abcd", wantFinish: "stop"},
		{name: "CRLF, comments, event and id fields, no space after colon",
			stream:      ": keep-alive\r\n\r\nevent: message\r\nid: 1\r\ndata:" + chunk("x") + "\r\n\r\nretry: 100\r\ndata: [DONE]\r\n\r\n",
			wantContent: "x"},
		{name: "[DONE] at EOF without a blank line", stream: "data: " + chunk("x") + "\n\ndata: [DONE]", wantContent: "x"},
		{name: "finish_reason then EOF without [DONE]", stream: "data: " + chunk("x") + "\n\ndata: " + finishStop + "\n\n",
			wantContent: "x", wantFinish: "stop"},
		{name: "data split over two lines", stream: "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":\ndata: [{\"index\":0,\"delta\":{\"content\":\"y\"}}]}\n\ndata: [DONE]\n\n",
			wantContent: "y"},
		{name: "other choices are ignored", stream: "data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"no\"}},{\"index\":0,\"delta\":{\"content\":\"yes\"}}]}\n\ndata: [DONE]\n\n",
			wantContent: "yes"},
		{name: "truncated", stream: "data: " + chunk("par") + "\n\ndata: " + chunk("tial"), wantContent: "partial",
			wantErr: "stream ended before the answer was complete: 2 chunks and 7 bytes of content"},
		{name: "empty body", stream: "", wantErr: "0 chunks"},
		{name: "not JSON", stream: "data: {oops\n\n", wantErr: "event 1 is not a chat.completion.chunk"},
		{name: "error event", stream: "data: " + chunk("a") + "\n\ndata: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n", wantContent: "a", wantErr: "overloaded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := readStream(strings.NewReader(tt.stream))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
			} else {
				require.NoError(t, err)
				assert.Equal(t, tt.wantFinish, c.finishReason)
			}
			assert.Equal(t, tt.wantContent, c.content)
		})
	}
}

func TestReadStreamEventTooLarge(t *testing.T) {
	_, err := readStream(strings.NewReader("data: " + strings.Repeat("x", maxEventBytes+10) + "\n\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "token too long")
}

func FuzzReadStream(f *testing.F) {
	f.Add("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	f.Add(": ping\r\n\r\ndata:[DONE]")
	f.Add("data: {\"error\":{\"message\":\"x\"}}\n\n")
	f.Add("data: {\"usage\":{\"prompt_tokens\":1},\"choices\":null}\n\ndata\n\n")
	f.Add("event: x\ndata: {\ndata: }\n\n")
	f.Fuzz(func(t *testing.T, stream string) {
		c, err := readStream(strings.NewReader(stream))
		if err == nil && c.finishReason == "" && !strings.Contains(stream, "[DONE]") {
			t.Fatalf("a stream without finish_reason or [DONE] was accepted: %q", stream)
		}
	})
}
