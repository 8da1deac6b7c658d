package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAPIKeyNeverLeaks drives every error path with a fake that echoes the
// Authorization header into its error bodies: the key must not appear in
// any error text, wrapped cause, or diagnostic.
func TestAPIKeyNeverLeaks(t *testing.T) {
	tests := []struct {
		name   string
		config string
		script []fakeReply
	}{
		{"401 echoing the header", "", []fakeReply{{status: 401, echoAuth: true}}},
		{"500 echoing the header, retried", `{"max_retries":1}`, []fakeReply{{status: 500, echoAuth: true}}},
		{"400 echoing the header as plain text", "", []fakeReply{{status: 400, body: "bad request from Bearer sk-test-SECRET-0123456789abcdef"}}},
		{"404 echoing the header", "", []fakeReply{{status: 404, echoAuth: true}}},
		{"error event echoing the key", `{"stream":true}`, []fakeReply{{events: []string{`{"error":{"message":"key sk-test-SECRET-0123456789abcdef is over quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.script...)
			a := newTestAgent(t, f, tt.config)
			_, err := a.Invoke(context.Background(), criticRequest())
			require.Error(t, err)
			require.Contains(t, f.requests()[0].header.Get("Authorization"), a.apiKey, "the key was sent")
			for e := error(err); e != nil; e = errors.Unwrap(e) {
				assert.NotContains(t, e.Error(), a.apiKey)
				assert.NotContains(t, e.Error(), "SECRET")
				assert.NotContains(t, fmt.Sprintf("%+v %#v", e, e), "SECRET")
			}
			assert.Contains(t, err.Error(), "[REDACTED]")
			assert.NotContains(t, a.logs.String(), "SECRET", "nor in the logs")
		})
	}
}

func TestKeyNotInDiagnostics(t *testing.T) {
	a := New(WithEnv(func(string) string { return "" }))
	diags, err := a.Configure(context.Background(), json.RawMessage(`{"api_key":["sk-live-SECRET-abcdef123456"]}`))
	require.NoError(t, err)
	require.True(t, diags.HasErrors())
	raw, _ := json.Marshal(diags)
	assert.NotContains(t, string(raw), "SECRET")
	assert.Contains(t, string(raw), `"path":"api_key"`)
}

// TestRedactor: the agent hides its key and token shapes (sdk/redact tests
// the shapes themselves).
func TestRedactor(t *testing.T) {
	r := Config{APIKey: "my-local-key-42"}.redactor()
	assert.Equal(t, "key [REDACTED] rejected, Authorization: Bearer [REDACTED]",
		r.String("key my-local-key-42 rejected, Authorization: Bearer abc.def-ghi"))
}

func TestConfigPrintsWithoutKey(t *testing.T) {
	temp := 0.3
	c := Config{BaseURL: "http://x/v1", APIKey: "sk-live-SECRET-abcdef123456", Model: "m", Temperature: &temp}
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), fmt.Sprint(&c)} {
		assert.NotContains(t, s, "SECRET")
		assert.Contains(t, s, "api_key=[REDACTED]")
	}
}
