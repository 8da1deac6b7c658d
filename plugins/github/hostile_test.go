package github

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// TestRedirectToAnotherPortCarriesNoToken: an API that redirects every
// request to a server on another port must not hand it the token, though
// the token is added in a transport, after Go's redirect policy ran.
func TestRedirectToAnotherPortCarriesNoToken(t *testing.T) {
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			fake := fakes.NewGitHub(testToken)
			fake.Enterprise = true
			other := &fakes.Recorder{Next: fake}
			otherSrv := httptest.NewServer(other)
			t.Cleanup(otherSrv.Close)
			from := httptest.NewServer(fakes.Redirect(status, otherSrv.URL))
			t.Cleanup(from.Close)

			waits := &plugintest.Waits{}
			s := New(WithEnv(func(string) string { return "" }), WithRetry(waits.Policy()))
			plugintest.Configure(t, s, map[string]any{"base_url": from.URL, "token": testToken, "repo": testRepo})
			_, err := sdktest.Collect(context.Background(), s, sdk.FetchRequest{Limit: 3})
			require.NoError(t, err, "the other server answers anonymous requests")
			got := other.Headers()
			require.NotEmpty(t, got, "the redirect is followed")
			for _, h := range got {
				assert.Empty(t, h.Get("Authorization"), "Authorization followed the redirect")
			}
			assert.Equal(t, 0, fake.Used(true))
			assert.Positive(t, fake.Used(false))
		})
	}
}

// TestTokenNeverLeaks: servers that echo the token in error bodies and
// records, on listings, searches and the milestones lookup; no error, log
// line or record carries it.
func TestTokenNeverLeaks(t *testing.T) {
	echo := `{"message":"token {TOKEN} is not welcome","documentation_url":"https://docs.github.com/rest"}`
	item := `{"number":1,"title":"{TOKEN}","body":"x {TOKEN} y","html_url":"https://h/{TOKEN}","user":{"login":"{TOKEN}"},"labels":[{"name":"{TOKEN}"}],"milestone":{"title":"{TOKEN}"},"assignees":[{"login":"{TOKEN}"}],"pull_request":{"url":"https://h/{TOKEN}"}}`
	targets := []struct {
		path string
		req  sdk.FetchRequest
		page func(items string) string
	}{
		{"/issues", sdk.FetchRequest{}, func(items string) string { return "[" + items + "]" }},
		{"/search/issues", sdk.FetchRequest{Kind: "pr", Filters: map[string][]string{"labels": {"auth"}}},
			func(items string) string {
				return `{"total_count":1,"incomplete_results":false,"items":[` + items + "]}"
			}},
		{"/milestones", sdk.FetchRequest{Filters: map[string][]string{"milestones": {"v1.1"}}}, func(items string) string { return "[" + items + "]" }},
	}
	for _, target := range targets {
		faults := []fakes.Fault{
			{Status: 401, Body: echo},
			{Status: 403, Body: echo},
			{Status: 404, Body: echo},
			{Status: 422, Body: echo},
			{Status: 418, Body: echo},
			{Status: 500, Times: 10, Body: echo},
			{Status: 403, Header: hdr("Retry-After", "600"), Body: echo},
			{Status: 403, Header: hdr("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "4102444800", "X-RateLimit-Resource", "search"), Body: echo},
			{Status: 200, Body: target.page(item)},
			{Status: 200, Body: target.page(`{"number":"{TOKEN}"}`)},
		}
		for _, f := range faults {
			f.PathContains = target.path
			t.Run(target.path+" "+http.StatusText(f.Status), func(t *testing.T) {
				h := newHarness(t, nil)
				h.fake.Fail(f)
				records, err := h.fetch(t, target.req)
				malformed := strings.Contains(f.Body, `"number":"`)
				if f.Status >= 400 || malformed {
					require.Error(t, err)
					assert.NotContains(t, err.Error(), testToken)
				}
				for _, r := range records {
					assert.NotContains(t, r.ID+r.Title+r.Body+r.URL+r.Author, testToken)
					for _, v := range r.Fields {
						assert.NotContains(t, slog.AnyValue(v).String(), testToken)
					}
				}
				assert.NotContains(t, h.logs.String(), testToken)
			})
		}
	}
}

// TestEndlessResponseStopsAtTheLimit: a body without end fails the fetch
// once max_response_bytes are read, without a retry.
func TestEndlessResponseStopsAtTheLimit(t *testing.T) {
	endless := &fakes.Endless{Prefix: `[{"number":1,"title":"`, Max: 64 << 20}
	srv := httptest.NewServer(endless)
	t.Cleanup(srv.Close)
	waits := &plugintest.Waits{}
	s := New(WithEnv(func(string) string { return "" }), WithRetry(waits.Policy()))
	plugintest.Configure(t, s, map[string]any{"base_url": srv.URL, "token": testToken, "repo": testRepo, "max_response_bytes": 1 << 20})
	_, err := sdktest.Collect(context.Background(), s, sdk.FetchRequest{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "larger than the limit of 1048576 bytes (1 MiB); raise max_response_bytes")
	assert.Contains(t, err.Error(), `repository "octo-org/octo-repo"`)
	assert.Equal(t, int64(1), endless.Requests())
	assert.Empty(t, waits.Recorded())
}
