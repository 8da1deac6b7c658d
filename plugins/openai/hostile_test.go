package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headerLog is a server on its own port that records each request's
// headers and answers a valid completion.
type headerLog struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []http.Header
}

func newHeaderLog(t *testing.T) *headerLog {
	l := &headerLog{}
	l.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		l.mu.Lock()
		l.got = append(l.got, r.Header.Clone())
		l.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, completionBody("m", `{"status":"PASS"}`, "stop", 1, 1))
	}))
	t.Cleanup(l.srv.Close)
	return l
}

func (l *headerLog) headers() []http.Header {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]http.Header(nil), l.got...)
}

// redirectTo answers every request with status to target plus its path.
func redirectTo(status int, target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.RequestURI(), status)
	})
}

// hostileAgent is an agent whose base URL is baseURL, with retries recorded.
func hostileAgent(t *testing.T, baseURL, config string, opts ...Option) *testAgent {
	t.Helper()
	ta := &testAgent{apiKey: "sk-test-SECRET-0123456789abcdef"}
	env := map[string]string{"OPENAI_API_KEY": ta.apiKey, "OPENAI_BASE_URL": baseURL}
	ta.Agent = New(append([]Option{WithEnv(func(k string) string { return env[k] })}, opts...)...)
	ta.sleep = ta.waits.Sleep
	ta.rand = func() float64 { return 0.5 }
	if config != "" {
		diags, err := ta.Configure(t.Context(), json.RawMessage(config))
		require.NoError(t, err)
		require.False(t, diags.HasErrors(), "%+v", diags)
	}
	return ta
}

// TestRedirectToAnotherPortCarriesNoKey: Go keeps Authorization across a
// redirect to the same host on another port; the agent must not.
func TestRedirectToAnotherPortCarriesNoKey(t *testing.T) {
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			other := newHeaderLog(t)
			from := httptest.NewServer(redirectTo(status, other.srv.URL))
			t.Cleanup(from.Close)
			a := hostileAgent(t, from.URL+"/v1", `{"max_retries":0}`)

			_, _ = a.Invoke(context.Background(), criticRequest())
			got := other.headers()
			require.NotEmpty(t, got, "the redirect is followed")
			for _, h := range got {
				assert.Empty(t, h.Get("Authorization"), "the API key followed the redirect")
			}
		})
	}
}

func TestRedirectFromHTTPSToHTTPIsRefused(t *testing.T) {
	plain := newHeaderLog(t)
	secure := httptest.NewTLSServer(redirectTo(http.StatusTemporaryRedirect, plain.srv.URL))
	t.Cleanup(secure.Close)
	a := hostileAgent(t, secure.URL+"/v1", "", WithHTTPClient(secure.Client()))

	_, err := a.Invoke(context.Background(), criticRequest())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "https must not be downgraded to http")
	assert.Empty(t, plain.headers(), "the http server is never contacted")
	assert.Empty(t, a.waits.Recorded(), "a refusal is final")
	assert.NotContains(t, err.Error(), a.apiKey)
}

// TestEndlessAnswerStopsAtTheLimit: a server that streams zeroes inside the
// JSON answer, or inside one server-sent event, without end.
func TestEndlessAnswerStopsAtTheLimit(t *testing.T) {
	tests := []struct {
		name   string
		config string
		prefix string
		ctype  string
	}{
		{"chat.completion", `{"max_response_bytes":1048576}`, `{"choices":[{"message":{"content":"`, "application/json"},
		{"event stream", `{"max_response_bytes":1048576,"stream":true}`, `data: {"choices":[{"delta":{"content":"`, "text/event-stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			written, requests := int64(0), 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				requests++
				mu.Unlock()
				w.Header().Set("Content-Type", tt.ctype)
				_, _ = io.WriteString(w, tt.prefix)
				chunk := []byte(strings.Repeat("0", 32<<10))
				for n := 0; n < 64<<20 && r.Context().Err() == nil; n += len(chunk) {
					if _, err := w.Write(chunk); err != nil {
						return
					}
					mu.Lock()
					written += int64(len(chunk))
					mu.Unlock()
				}
			}))
			t.Cleanup(srv.Close)
			a := hostileAgent(t, srv.URL+"/v1", tt.config)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()

			_, err := a.Invoke(ctx, criticRequest())
			require.Error(t, err)
			assert.Contains(t, err.Error(), "larger than the limit of 1048576 bytes (1 MiB); raise max_response_bytes")
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, 1, requests, "a body over the limit is not fetched again")
			assert.Less(t, written, int64(32<<20), "the client stopped reading near the limit")
		})
	}
}
