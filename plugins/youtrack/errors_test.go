package youtrack

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
)

type env map[string]string

func (e env) get(k string) string { return e[k] }

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestFetchRetries(t *testing.T) {
	tests := []struct {
		name      string
		faults    []fakes.Fault
		wantWaits []time.Duration
	}{
		{
			name:      "429 with Retry-After",
			faults:    []fakes.Fault{{Status: 429, Header: hdr("Retry-After", "2"), Body: `{"error":"too_many_requests","error_description":"Rate limit exceeded"}`}},
			wantWaits: []time.Duration{2 * time.Second},
		},
		{
			name:      "429 with an HTTP-date Retry-After in the past",
			faults:    []fakes.Fault{{Status: 429, Header: hdr("Retry-After", "Mon, 01 Jan 2024 00:00:00 GMT")}},
			wantWaits: []time.Duration{0},
		},
		{
			name:      "429 without rate-limit headers",
			faults:    []fakes.Fault{{Status: 429, Times: 3}},
			wantWaits: []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond},
		},
		{
			name:      "503 on the second page",
			faults:    []fakes.Fault{{PathContains: "%24skip=100", Status: 503, Body: "<html>Service Unavailable</html>"}},
			wantWaits: []time.Duration{50 * time.Millisecond},
		},
		{
			name:      "a cut body is fetched again",
			faults:    []fakes.Fault{{Status: 200, Body: `[{"idReadable":"ABC-1","summ`}},
			wantWaits: []time.Duration{50 * time.Millisecond},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "/youtrack")
			for _, f := range tt.faults {
				h.fake.Fail(f)
			}
			records, err := h.fetch(t, sdk.FetchRequest{Filters: map[string][]string{"projects": {"ABC"}}})
			require.NoError(t, err)
			assert.Len(t, records, len(projectIssues(h.fake, "ABC")))
			assert.Equal(t, tt.wantWaits, h.waits.Recorded())
		})
	}
}

func TestFetchErrors(t *testing.T) {
	tests := []struct {
		name     string
		suffix   string
		fault    *fakes.Fault
		query    string
		token    string
		deadline time.Duration
		kind     error
		want     []string
	}{
		{name: "wrong token", token: "perm:other", kind: sdk.ErrUnauthorized, want: []string{"401", "Unauthorized: Invalid token"}},
		{name: "forbidden", fault: &fakes.Fault{Status: 403, Body: `{"error":"Forbidden","error_description":"You have no access to project ABC"}`},
			kind: sdk.ErrUnauthorized, want: []string{"403", "no access to project ABC"}},
		{name: "wrong base path", suffix: "/elsewhere", kind: sdk.ErrNotFound, want: []string{"404", "base_url"}},
		{name: "query YouTrack rejects", query: "#nonsense", kind: sdk.ErrBadRequest, want: []string{"400", "bad_request", "#nonsense"}},
		{name: "outage", fault: &fakes.Fault{Status: 503, Times: 10}, kind: sdk.ErrUnavailable, want: []string{"gave up after 4 attempt(s)", "503"}},
		{name: "rate limit past the deadline", deadline: 3 * time.Second,
			fault: &fakes.Fault{Status: 429, Header: hdr("Retry-After", "120")}, kind: sdk.ErrRateLimited, want: []string{"rate limited", "deadline"}},
		{name: "html instead of json", fault: &fakes.Fault{Status: 200, Body: "<html>login</html>"}, kind: sdk.ErrUnavailable, want: []string{"malformed response"}},
		{name: "object instead of list", fault: &fakes.Fault{Status: 200, Body: `{"error":"?"}`}, kind: sdk.ErrUnavailable, want: []string{"malformed response"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "/youtrack"+tt.suffix)
			if tt.fault != nil {
				h.fake.Fail(*tt.fault)
			}
			if tt.token != "" {
				h.fake.Token = tt.token
			}
			ctx := context.Background()
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
			}
			var err error
			require.NotPanics(t, func() {
				err = h.source.Fetch(ctx, sdk.FetchRequest{Filters: map[string][]string{"query": {tt.query}}}, func(sdk.Record) error { return nil })
			})
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.kind)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// TestTokenNeverLeaks drives failures from a server that echoes the token
// and checks every error, log line and record for it.
func TestTokenNeverLeaks(t *testing.T) {
	scenarios := []struct {
		name  string
		fault *fakes.Fault
	}{
		{"401 echo", &fakes.Fault{Status: 401, Body: `{"error":"Unauthorized","error_description":"token {TOKEN} was revoked"}`}},
		{"400 echo", &fakes.Fault{Status: 400, Body: `{"error":"bad_request","error_description":"Authorization: Bearer {TOKEN}"}`}},
		{"503 echo until giving up", &fakes.Fault{Status: 503, Times: 10, Body: `upstream said {TOKEN}`}},
		{"429 echo", &fakes.Fault{Status: 429, Times: 10, Body: `{"error_description":"slow down {TOKEN}"}`}},
		{"malformed echo", &fakes.Fault{Status: 200, Body: `{TOKEN}`}},
		{"the token inside an issue", nil},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			h := newHarness(t, "/youtrack")
			leaky := strings.Replace(string(h.fake.Issues[0].JSON), `"summary":"`, `"summary":"`+testToken+` `, 1)
			h.fake.Issues[0].JSON = json.RawMessage(leaky)
			if sc.fault != nil {
				h.fake.Fail(*sc.fault)
			}
			seen, err := plugintest.Said(t, h.source, sdk.FetchRequest{Limit: 3})
			if sc.fault != nil {
				require.Error(t, err)
			}
			seen = append(seen, h.logs.String())
			for _, s := range seen {
				assert.NotContains(t, s, testToken)
				assert.NotContains(t, s, "s3cr3tT0kenValue")
			}
		})
	}
}

func TestAuthorizationHeader(t *testing.T) {
	fake := fakes.NewYouTrack(testToken, "")
	headers := make(chan http.Header, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers <- r.Header.Clone()
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	s := New(WithEnv(env{"YOUTRACK_URL": srv.URL, "YOUTRACK_TOKEN": testToken}.get))
	diags, err := s.Configure(context.Background(), nil)
	require.NoError(t, err)
	require.False(t, diags.HasErrors(), "%v", diags)
	require.NoError(t, s.Fetch(context.Background(), sdk.FetchRequest{Limit: 1}, func(sdk.Record) error { return nil }))
	got := <-headers
	assert.Equal(t, "Bearer "+testToken, got.Get("Authorization"))
	assert.Equal(t, "application/json", got.Get("Accept"))
}

func TestFetchReturnsEmitErrorUnchanged(t *testing.T) {
	h := newHarness(t, "/youtrack")
	stop := &sdk.Error{Kind: sdk.KindUnknown, Message: "consumer stopped"}
	n := 0
	err := h.source.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	assert.Same(t, stop, err)
}

func TestFetchHonoursTheDeadline(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // hang until the client gives up
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	s := New(WithEnv(env{"YOUTRACK_URL": srv.URL, "YOUTRACK_TOKEN": testToken}.get))
	_, err := s.Configure(context.Background(), nil)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err = s.Fetch(ctx, sdk.FetchRequest{}, func(sdk.Record) error { return nil })
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrDeadline)
}
