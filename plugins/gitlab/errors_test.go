package gitlab

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
)

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestFetchRetriesRateLimitsAndOutages(t *testing.T) {
	const commits = "/repository/commits"
	tests := []struct {
		name      string
		faults    []fakes.Fault
		wantWaits []time.Duration
	}{
		{
			name:      "429 with Retry-After seconds",
			faults:    []fakes.Fault{{PathContains: commits, Status: 429, Header: hdr("Retry-After", "3"), Body: "Retry later\n"}},
			wantWaits: []time.Duration{3 * time.Second},
		},
		{
			name:      "429 without any rate-limit header backs off exponentially",
			faults:    []fakes.Fault{{PathContains: commits, Times: 2, Status: 429, Body: "Retry later\n"}},
			wantWaits: []time.Duration{50 * time.Millisecond, 100 * time.Millisecond},
		},
		{
			name:      "503 then 502",
			faults:    []fakes.Fault{{PathContains: commits, Status: 503, Body: `{"message":"503 Service Unavailable"}`}, {PathContains: commits, Status: 502, Body: "<html>bad gateway</html>"}},
			wantWaits: []time.Duration{50 * time.Millisecond, 100 * time.Millisecond},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			for _, f := range tt.faults {
				h.fake.Fail(f)
			}
			records, err := h.fetch(t, sdk.FetchRequest{Filters: project("group/sub/app")})
			require.NoError(t, err)
			assert.Len(t, records, len(h.fake.Project.Commits), "nothing lost to the retries")
			assert.Equal(t, tt.wantWaits, h.waits.Recorded())
			assert.Contains(t, h.logs.String(), "retrying")
		})
	}
}

func TestFetchHonoursRateLimitReset(t *testing.T) {
	h := newHarness(t, nil)
	now := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	h.source.deps.Policy.Now = func() time.Time { return now }
	h.fake.Fail(fakes.Fault{PathContains: "/issues", Status: 429, Header: hdr("RateLimit-Reset", strconv.FormatInt(now.Unix()+12, 10), "RateLimit-Remaining", "0")})
	_, err := h.fetch(t, sdk.FetchRequest{Kind: "issue", Filters: project("group/sub/app"), Limit: 3})
	require.NoError(t, err)
	assert.Equal(t, []time.Duration{12 * time.Second}, h.waits.Recorded())
}

func TestFetchErrors(t *testing.T) {
	tests := []struct {
		name     string
		project  string
		fault    *fakes.Fault
		token    string // "" keeps the right token
		deadline time.Duration
		kind     error
		want     []string
	}{
		{
			name: "unknown project is not found", project: "group/missing",
			kind: sdk.ErrNotFound, want: []string{`"group/missing"`, "HTTP 404: 404 Project Not Found"},
		},
		{
			name: "wrong token is unauthorized", project: "group/sub/app", token: "wrong",
			kind: sdk.ErrUnauthorized, want: []string{`"group/sub/app"`, "401", "401 Unauthorized"},
		},
		{
			name: "forbidden", project: "group/sub/app",
			fault: &fakes.Fault{Status: 403, Body: `{"message":"403 Forbidden - Your account has been blocked."}`},
			kind:  sdk.ErrUnauthorized, want: []string{"403", "Your account has been blocked"},
		},
		{
			name: "oauth error body", project: "group/sub/app",
			fault: &fakes.Fault{Status: 401, Body: `{"error":"invalid_token","error_description":"Token is expired. You can either do re-authorization or token refresh."}`},
			kind:  sdk.ErrUnauthorized, want: []string{"invalid_token: Token is expired"},
		},
		{
			name: "validation message object", project: "group/sub/app",
			fault: &fakes.Fault{Status: 400, Body: `{"message":{"since":["is invalid"]}}`},
			kind:  sdk.ErrBadRequest, want: []string{`{"since":["is invalid"]}`},
		},
		{
			name: "outage outlasting the attempts", project: "group/sub/app",
			fault: &fakes.Fault{Status: 500, Times: 10, Body: `{"message":"500 Internal Server Error"}`},
			kind:  sdk.ErrUnavailable, want: []string{"gave up after 4 attempt(s)", "500 Internal Server Error"},
		},
		{
			name: "rate limit longer than the deadline", project: "group/sub/app", deadline: 5 * time.Second,
			fault: &fakes.Fault{Status: 429, Header: hdr("Retry-After", "60"), Body: "Retry later\n"},
			kind:  sdk.ErrRateLimited, want: []string{"rate limited", "deadline"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
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
			err := h.source.Fetch(ctx, sdk.FetchRequest{Filters: project(tt.project)}, func(sdk.Record) error { return nil })
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.kind)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			if sdk.KindOf(err) != sdk.KindUnavailable && sdk.KindOf(err) != sdk.KindRateLimited {
				assert.Len(t, h.fake.Requests(), 1, "client errors are not retried")
			}
		})
	}
}

func TestMalformedResponsesNeverPanic(t *testing.T) {
	tests := []struct {
		name  string
		kind  string
		fault fakes.Fault
	}{
		{"link header without rel value", "commit", fakes.Fault{Status: 200, Header: hdr("Link", `<http://x/?page=2>; rel`), Body: `[]`}},
		{"issue without id", "issue", fakes.Fault{Status: 200, Body: `[{"iid":1,"title":"x"}]`}},
		{"truncated json every time", "merge_request", fakes.Fault{Status: 200, Times: 10, Body: `[{"iid":1,"title":`}},
		{"object instead of list", "pipeline", fakes.Fault{Status: 200, Body: `{"id":1}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.fake.Fail(tt.fault)
			var err error
			require.NotPanics(t, func() {
				_, err = h.fetch(t, sdk.FetchRequest{Kind: tt.kind, Filters: project("group/sub/app")})
			})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "gitlab")
		})
	}
}

// TestTokenNeverLeaks drives every failure path with a server that echoes
// the token back, and looks for it in every error, log line and record.
func TestTokenNeverLeaks(t *testing.T) {
	echo := `{"message":"401 Unauthorized: token {TOKEN} is revoked"}`
	scenarios := []struct {
		name  string
		fault *fakes.Fault
		kind  string
	}{
		{"401 echoing the token", &fakes.Fault{Status: 401, Body: echo}, "commit"},
		{"403 echoing the token", &fakes.Fault{Status: 403, Body: `{"error":"insufficient_scope","error_description":"{TOKEN} lacks read_api"}`}, "issue"},
		{"500s echoing the token until giving up", &fakes.Fault{Status: 500, Times: 10, Body: `debug: PRIVATE-TOKEN={TOKEN}`}, "merge_request"},
		{"429 echoing the token", &fakes.Fault{Status: 429, Times: 10, Body: `slow down {TOKEN}`}, "pipeline"},
		{"400 echoing the token", &fakes.Fault{Status: 400, Body: `{"message":"bad {TOKEN}"}`}, "commit"},
		{"200 with the token in a record", nil, "commit"},
		{"200 with the token in a release", nil, "release"},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.fake.Project.Commits[0].Message = "oops, committed " + testToken
			h.fake.Project.Commits[0].Title = testToken
			h.fake.Project.Releases[1].Description = "built with " + testToken
			if sc.fault != nil {
				h.fake.Fail(*sc.fault)
			}
			seen, err := plugintest.Said(t, h.source, sdk.FetchRequest{Kind: sc.kind, Filters: project("group/sub/app"), Limit: 5})
			if sc.fault != nil {
				require.Error(t, err)
			}
			seen = append(seen, h.logs.String())
			for _, s := range seen {
				assert.NotContains(t, s, testToken)
			}
			assert.Contains(t, strings.Join(seen, "\n"), "[REDACTED]", "the echo was observed and scrubbed")
		})
	}
}

func TestClassifyPassesContextErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h := newHarness(t, nil)
	err := h.source.Fetch(ctx, sdk.FetchRequest{Filters: project("group/sub/app")}, func(sdk.Record) error { return nil })
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
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
	s := New(WithEnv(func(string) string { return "" }))
	_, err := s.Configure(context.Background(), json.RawMessage(`{"base_url":"`+srv.URL+`","token":"`+testToken+`"}`))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err = s.Fetch(ctx, sdk.FetchRequest{Filters: project("group/sub/app")}, func(sdk.Record) error { return nil })
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrDeadline)
	assert.Contains(t, err.Error(), `"group/sub/app"`)
}
