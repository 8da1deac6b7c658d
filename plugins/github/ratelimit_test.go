package github

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

const secondaryBody = `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 1234:5678.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits","status":"403"}`

// TestPrimaryLimitWaitsForTheResetWithinTheDeadline: the third page meets
// an exhausted limit whose reset is 30s away; with a deadline of minutes
// the source waits for it and goes on.
func TestPrimaryLimitWaitsForTheResetWithinTheDeadline(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.Limit = 2
	h.fake.Reset = time.Now().Add(30 * time.Second).Truncate(time.Second)
	policy := h.waits.Policy()
	sleep := policy.Sleep
	policy.Sleep = func(ctx context.Context, d time.Duration) error {
		h.fake.NewWindow(time.Now().Add(time.Hour))
		return sleep(ctx, d)
	}
	h.source.deps.Policy = policy
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	records, err := sdktest.Collect(ctx, h.source, sdk.FetchRequest{})
	require.NoError(t, err)
	assert.Equal(t, 150, len(records))
	waits := h.waits.Recorded()
	require.Len(t, waits, 1)
	assert.InDelta(t, 31*time.Second, waits[0], float64(2*time.Second), "until x-ratelimit-reset, plus a second")
	assert.Contains(t, h.logs.String(), "rate limit exceeded")
}

func TestPrimaryLimitPastTheDeadlineSaysWhenToRetry(t *testing.T) {
	tests := []struct {
		name     string
		config   map[string]any
		want     []string
		dontWant string
	}{
		{"authenticated", nil, []string{"rate limit exhausted (2 requests an hour)", "retry after "}, "GITHUB_TOKEN"},
		{"unauthenticated", map[string]any{"token": ""}, []string{"rate limit exhausted (2 requests an hour, unauthenticated)", "set GITHUB_TOKEN (or GH_TOKEN) for 5,000 requests an hour", "API rate limit exceeded for 127.0.0.1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.config)
			h.fake.Limit, h.fake.AnonymousLimit = 2, 2
			reset := time.Now().Add(time.Hour).Truncate(time.Second)
			h.fake.Reset = reset
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var got []sdk.Record
			err := h.source.Fetch(ctx, sdk.FetchRequest{}, func(r sdk.Record) error { got = append(got, r); return nil })
			require.Error(t, err)
			assert.ErrorIs(t, err, sdk.ErrRateLimited)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Contains(t, err.Error(), reset.UTC().Format("2006-01-02 15:04:05 UTC"))
			assert.Contains(t, err.Error(), `repository "octo-org/octo-repo"`)
			if tt.dontWant != "" {
				assert.NotContains(t, err.Error(), tt.dontWant)
			}
			assert.NotEmpty(t, got, "the pages before the limit arrive")
			assert.Empty(t, h.waits.Recorded(), "a wait past the deadline is not started")
		})
	}
}

func TestSecondaryLimits(t *testing.T) {
	tests := []struct {
		name      string
		fault     fakes.Fault
		wantWaits []time.Duration
	}{
		{"403 with retry-after", fakes.Fault{PathContains: "/issues", Status: 403, Header: hdr("Retry-After", "7"), Body: secondaryBody}, []time.Duration{7 * time.Second}},
		{"429 with retry-after", fakes.Fault{PathContains: "/issues", Status: 429, Header: hdr("Retry-After", "3"), Body: secondaryBody}, []time.Duration{3 * time.Second}},
		{"403 naming no time waits a minute", fakes.Fault{PathContains: "/issues", Status: 403, Body: secondaryBody}, []time.Duration{time.Minute}},
		{"429 with the window used up waits for the reset", fakes.Fault{PathContains: "/issues", Status: 429,
			Header: hdr("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(20*time.Second).Unix(), 10)), Body: secondaryBody}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.fake.Fail(tt.fault)
			records, err := h.fetch(t, sdk.FetchRequest{Limit: 5})
			require.NoError(t, err)
			assert.Len(t, records, 5)
			waits := h.waits.Recorded()
			require.Len(t, waits, 1)
			if tt.wantWaits != nil {
				assert.Equal(t, tt.wantWaits, waits)
			} else {
				assert.InDelta(t, 21*time.Second, waits[0], float64(2*time.Second))
			}
		})
	}

	h := newHarness(t, nil)
	h.fake.Fail(fakes.Fault{PathContains: "/issues", Status: 403, Header: hdr("Retry-After", "120"), Body: secondaryBody})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := sdktest.Collect(ctx, h.source, sdk.FetchRequest{})
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrRateLimited)
	assert.Contains(t, err.Error(), "secondary rate limit hit; waiting 2m0s would pass this call's deadline; retry in 2m0s")
}

func TestErrorsNameTheRepository(t *testing.T) {
	tests := []struct {
		name   string
		config map[string]any
		repo   string
		kind   error
		want   string
	}{
		{"bad token", map[string]any{"token": "ghp_wrong-token-value-0000000000000000"}, testRepo, sdk.ErrUnauthorized, `github: token rejected for repository "octo-org/octo-repo": HTTP 401: Bad credentials`},
		{"missing repository", nil, "octo-org/gone", sdk.ErrNotFound, `github: repository "octo-org/gone" not found, or the token cannot see it: HTTP 404: Not Found`},
		{"missing repository without a token", map[string]any{"token": ""}, "octo-org/gone", sdk.ErrNotFound, "or it is private and no token is set (GITHUB_TOKEN)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.config)
			_, err := h.fetch(t, sdk.FetchRequest{Filters: map[string][]string{"projects": {tt.repo}}})
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.kind)
			assert.Contains(t, err.Error(), tt.want)
			assert.Empty(t, h.waits.Recorded(), "not retried")
		})
	}
}

func TestOutagesAreRetried(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.Fail(fakes.Fault{PathContains: "/pulls", Status: 502, Body: "<html>bad gateway</html>"})
	h.fake.Fail(fakes.Fault{PathContains: "/pulls", Status: 503, Body: `{"message":"Service Unavailable"}`})
	records, err := h.fetch(t, sdk.FetchRequest{Kind: "pull_request"})
	require.NoError(t, err)
	assert.Len(t, records, len(h.fake.Repo.PullRequests))
	assert.Equal(t, []time.Duration{50 * time.Millisecond, 100 * time.Millisecond}, h.waits.Recorded())
}

// FuzzRateLimit: whatever rate-limit headers a server sends, reading them
// never panics, never asks for a negative wait, and a limit it reports
// always says when to retry.
func FuzzRateLimit(f *testing.F) {
	f.Add(403, "0", "1700000000", "", "API rate limit exceeded")
	f.Add(429, "", "", "30", "secondary rate limit")
	f.Add(403, "12", "x", "-5", "Forbidden")
	f.Add(429, "0", "99999999999999999999", "Wed, 21 Oct 2015 07:28:00 GMT", "")
	f.Add(403, "0", "9000000000000000000", "", "")
	f.Add(429, "", "", "9223372036", "")
	now := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, status int, remaining, reset, retryAfter, message string) {
		resp := &http.Response{StatusCode: status, Header: hdr("X-RateLimit-Remaining", remaining, "X-RateLimit-Reset", reset, "Retry-After", retryAfter)}
		le := rateLimit(resp, &apiError{Status: status, Message: message}, false, now)
		if le == nil {
			return
		}
		assert.GreaterOrEqual(t, le.wait, time.Duration(0))
		assert.LessOrEqual(t, le.wait, maxLimitWait+time.Second)
		advice := le.advice(0)
		assert.Contains(t, advice, "retry ")
		assert.Contains(t, advice, "GITHUB_TOKEN")
		assert.NotEmpty(t, le.header().Get("Retry-After"))
	})
}
