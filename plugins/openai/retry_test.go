package openai

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
)

func rateLimited(header map[string]string) fakeReply {
	return fakeReply{status: 429, header: header, body: apiErrorBody(
		"Rate limit reached for gpt-4o-mini in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1.",
		"requests", "", "rate_limit_exceeded")}
}

func serverError(status int) fakeReply {
	return fakeReply{status: status, body: apiErrorBody("The server had an error while processing your request. Sorry about that!", "server_error", "", "")}
}

var ok = fakeReply{body: completionBody("m", criticAnswer, "stop", 1, 1)}

func TestRetries(t *testing.T) {
	tests := []struct {
		name      string
		config    string
		script    []fakeReply
		wantCalls int
		wantWaits []time.Duration
		wantKind  sdk.ErrorKind // KindUnknown: success
		wantMsg   string
	}{
		{name: "429 with Retry-After seconds", script: []fakeReply{rateLimited(map[string]string{"Retry-After": "2"}), ok},
			wantCalls: 2, wantWaits: []time.Duration{2 * time.Second}},
		{name: "429 with retry-after-ms wins over Retry-After", script: []fakeReply{rateLimited(map[string]string{"retry-after-ms": "150", "Retry-After": "1"}), ok},
			wantCalls: 2, wantWaits: []time.Duration{150 * time.Millisecond}},
		{name: "429 without Retry-After backs off exponentially with jitter",
			script:    []fakeReply{rateLimited(nil), rateLimited(nil), rateLimited(nil), ok},
			wantCalls: 4, wantWaits: []time.Duration{375 * time.Millisecond, 750 * time.Millisecond, 1500 * time.Millisecond}},
		{name: "5xx are retried", script: []fakeReply{serverError(500), serverError(502), serverError(503), ok},
			wantCalls: 4, wantWaits: []time.Duration{375 * time.Millisecond, 750 * time.Millisecond, 1500 * time.Millisecond}},
		{name: "408 and 409 are retried", script: []fakeReply{{status: 408, body: "timeout"}, {status: 409, body: "conflict"}, ok},
			wantCalls: 3, wantWaits: []time.Duration{375 * time.Millisecond, 750 * time.Millisecond}},
		{name: "out of retries on 429", config: `{"max_retries":2}`, script: []fakeReply{rateLimited(map[string]string{"retry-after-ms": "10"})},
			wantCalls: 3, wantWaits: []time.Duration{10 * time.Millisecond, 10 * time.Millisecond},
			wantKind: sdk.KindRateLimited, wantMsg: "429 Too Many Requests (rate_limit_exceeded): Rate limit reached for gpt-4o-mini"},
		{name: "out of retries on 503", config: `{"max_retries":1}`, script: []fakeReply{serverError(503)},
			wantCalls: 2, wantWaits: []time.Duration{375 * time.Millisecond}, wantKind: sdk.KindUnavailable, wantMsg: "(after 2 attempt(s))"},
		{name: "no retries configured", config: `{"max_retries":0}`, script: []fakeReply{serverError(500)},
			wantCalls: 1, wantKind: sdk.KindUnavailable, wantMsg: "500 Internal Server Error: The server had an error"},
		{name: "400 is not retried", script: []fakeReply{{status: 400, body: apiErrorBody("Invalid value for 'temperature'.", "invalid_request_error", "temperature", "invalid_value")}},
			wantCalls: 1, wantKind: sdk.KindBadRequest, wantMsg: "400 Bad Request (invalid_value): Invalid value for 'temperature'. [type invalid_request_error, param temperature]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.script...)
			a := newTestAgent(t, f, tt.config)
			resp, err := a.Invoke(context.Background(), criticRequest())
			assert.Len(t, f.requests(), tt.wantCalls)
			assert.Equal(t, tt.wantWaits, a.waits.Recorded())
			assert.Equal(t, len(tt.wantWaits), strings.Count(a.logs.String(), "openai: retrying"), "each retry is logged")
			if tt.wantKind == sdk.KindUnknown {
				require.NoError(t, err)
				assert.JSONEq(t, criticAnswer, string(resp.Output))
				return
			}
			require.Error(t, err)
			assert.Equal(t, tt.wantKind, sdk.KindOf(err), err.Error())
			assert.Contains(t, err.Error(), tt.wantMsg)
		})
	}
}

func TestRetryAfterPastDeadlineGivesUp(t *testing.T) {
	f := newFake(t, rateLimited(map[string]string{"Retry-After": "30"}), ok)
	a := newTestAgent(t, f, "")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := a.Invoke(ctx, criticRequest())
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrRateLimited)
	assert.Contains(t, err.Error(), "the next retry, in 30s, would pass the deadline")
	assert.Empty(t, a.waits.Recorded(), "it does not wait for a retry it cannot make")
	assert.Len(t, f.requests(), 1)
}

func TestRealSleepHonoursRetryAfterMillis(t *testing.T) {
	f := newFake(t, rateLimited(map[string]string{"retry-after-ms": "40"}), ok)
	a := newTestAgent(t, f, "")
	a.sleep = retry.Sleep
	resp, err := a.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)
	assert.JSONEq(t, criticAnswer, string(resp.Output))
	assert.Len(t, f.requests(), 2)
}

func TestTimeout(t *testing.T) {
	f := newFake(t, fakeReply{delay: 5 * time.Second})
	a := newTestAgent(t, f, `{"timeout":"50ms"}`)
	_, err := a.Invoke(context.Background(), criticRequest())
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrDeadline)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "out of time")
}

func TestCancelledWhileWaiting(t *testing.T) {
	f := newFake(t, rateLimited(map[string]string{"Retry-After": "1"}), ok)
	a := newTestAgent(t, f, "")
	ctx, cancel := context.WithCancel(context.Background())
	a.sleep = func(ctx context.Context, d time.Duration) error { cancel(); return retry.Sleep(ctx, d) }
	_, err := a.Invoke(ctx, criticRequest())
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, err, sdk.ErrDeadline)
	assert.Len(t, f.requests(), 1)
}

func TestUnreachableServer(t *testing.T) {
	f := newFake(t)
	a := newTestAgent(t, f, `{"max_retries":2}`)
	f.srv.Close()
	_, err := a.Invoke(context.Background(), criticRequest())
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrUnavailable)
	assert.Contains(t, err.Error(), "could not be reached")
	assert.Contains(t, err.Error(), "(after 3 attempt(s))")
	assert.Len(t, a.waits.Recorded(), 2)
}

func TestErrorMapping(t *testing.T) {
	tests := []struct {
		name     string
		reply    fakeReply
		wantKind sdk.ErrorKind
		wantMsg  []string
	}{
		{"401 invalid key", fakeReply{status: 401, body: apiErrorBody("Incorrect API key provided: sk-abc***xyz.", "invalid_request_error", "", "invalid_api_key")},
			sdk.KindUnauthorized, []string{"401 Unauthorized (invalid_api_key): Incorrect API key provided"}},
		{"403 region", fakeReply{status: 403, body: apiErrorBody("Country, region, or territory not supported", "request_forbidden", "", "unsupported_country_region_territory")},
			sdk.KindUnauthorized, []string{"403 Forbidden", "not supported"}},
		{"404 model", fakeReply{status: 404, body: apiErrorBody("The model `gpt-9` does not exist or you do not have access to it.", "invalid_request_error", "", "model_not_found")},
			sdk.KindNotFound, []string{"is the model name right", "(model_not_found): The model `gpt-9` does not exist"}},
		{"422 unprocessable", fakeReply{status: 422, body: `{"detail":"bad"}`}, sdk.KindBadRequest, []string{`422 Unprocessable Entity: {"detail":"bad"}`}},
		{"418 unknown status", fakeReply{status: 418, body: "teapot"}, sdk.KindUnknown, []string{"418 I'm a teapot: teapot"}},
		{"error event in a stream", fakeReply{events: []string{`{"error":{"message":"The server had an error processing your request.","type":"server_error","param":null,"code":null}}`}},
			sdk.KindUnavailable, []string{"The server had an error processing your request."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.reply)
			a := newTestAgent(t, f, `{"model":"gpt-9","stream":true}`)
			_, err := a.Invoke(context.Background(), criticRequest())
			require.Error(t, err)
			assert.Equal(t, tt.wantKind, sdk.KindOf(err), err.Error())
			assert.Contains(t, err.Error(), "openai: POST "+f.baseURL()+"/chat/completions (model gpt-9)")
			for _, m := range tt.wantMsg {
				assert.Contains(t, err.Error(), m)
			}
		})
	}
}

func TestWrongBaseURLPath(t *testing.T) {
	f := newFake(t)
	a := newTestAgent(t, f, `{"base_url":"`+f.srv.URL+`/api"}`)
	_, err := a.Invoke(context.Background(), criticRequest())
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrNotFound)
	assert.Contains(t, err.Error(), "base_url the API root ending in /v1")
	assert.Contains(t, err.Error(), "Invalid URL (POST /api/chat/completions)")
}

func TestRetryAfterHTTPDate(t *testing.T) {
	now := time.Date(2026, 11, 9, 12, 0, 0, 0, time.UTC)
	f := newFake(t, rateLimited(map[string]string{"Retry-After": now.Add(3 * time.Second).Format(http.TimeFormat)}), ok)
	a := newTestAgent(t, f, "")
	a.now = func() time.Time { return now }
	_, err := a.Invoke(context.Background(), criticRequest())
	require.NoError(t, err)
	assert.Equal(t, []time.Duration{3 * time.Second}, a.waits.Recorded())
}
