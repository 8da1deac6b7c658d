package gitlab

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/httpclient"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// hostileSource is a source configured against baseURL with the given
// extra config, retries recorded instead of slept.
func hostileSource(t *testing.T, baseURL string, config map[string]any, opts ...Option) (*Source, *plugintest.Waits) {
	t.Helper()
	waits := &plugintest.Waits{}
	s := New(append([]Option{WithEnv(func(string) string { return "" }), WithRetry(waits.Policy())}, opts...)...)
	cfg := map[string]any{"base_url": baseURL, "token": testToken}
	maps.Copy(cfg, config)
	plugintest.Configure(t, s, cfg)
	return s, waits
}

// TestRedirectToAnotherPortCarriesNoToken: a GitLab that redirects every
// request to a server on another port must not hand that server the token,
// in either auth mode (PRIVATE-TOKEN survives Go's own redirect policy).
func TestRedirectToAnotherPortCarriesNoToken(t *testing.T) {
	for _, auth := range []string{AuthPrivateToken, AuthOAuth} {
		for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect} {
			t.Run(auth+" "+http.StatusText(status), func(t *testing.T) {
				other := &fakes.Recorder{Next: fakes.NewGitLab(testToken)}
				otherSrv := httptest.NewServer(other)
				t.Cleanup(otherSrv.Close)
				from := httptest.NewServer(fakes.Redirect(status, otherSrv.URL))
				t.Cleanup(from.Close)

				s, _ := hostileSource(t, from.URL, map[string]any{"auth": auth})
				_, err := sdktest.Collect(context.Background(), s, sdk.FetchRequest{Kind: sdk.KindCommit, Filters: project("group/sub/app")})
				require.Error(t, err, "the other server gets no token, so it refuses")
				assert.NotContains(t, err.Error(), testToken)

				got := other.Headers()
				require.NotEmpty(t, got, "the redirect is followed")
				for _, h := range got {
					assert.Empty(t, h.Get("Private-Token"), "PRIVATE-TOKEN followed the redirect")
					assert.Empty(t, h.Get("Authorization"), "Authorization followed the redirect")
				}
			})
		}
	}
}

// TestRedirectFromHTTPSToHTTPIsRefused: an https GitLab that redirects to
// plain http is not followed, and the refusal is not retried.
func TestRedirectFromHTTPSToHTTPIsRefused(t *testing.T) {
	plain := &fakes.Recorder{Next: fakes.NewGitLab(testToken)}
	plainSrv := httptest.NewServer(plain)
	t.Cleanup(plainSrv.Close)
	secure := httptest.NewTLSServer(fakes.Redirect(http.StatusFound, plainSrv.URL))
	t.Cleanup(secure.Close)

	s, waits := hostileSource(t, secure.URL, nil, WithHTTPClient(secure.Client()))
	_, err := sdktest.Collect(context.Background(), s, sdk.FetchRequest{Kind: sdk.KindCommit, Filters: project("group/sub/app")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "https must not be downgraded to http")
	assert.Empty(t, plain.Headers(), "the http server is never contacted")
	assert.Empty(t, waits.Recorded(), "a refusal is final")
}

// TestEndlessResponseStopsAtTheLimit: a server streaming a JSON string of
// zeroes without end fails the fetch once max_response_bytes are read,
// naming the limit, without a retry and without reading further.
func TestEndlessResponseStopsAtTheLimit(t *testing.T) {
	const limit = 1 << 20
	endless := &fakes.Endless{Prefix: `[{"id":"1","title":"`, Max: 64 << 20}
	srv := httptest.NewServer(endless)
	t.Cleanup(srv.Close)

	s, waits := hostileSource(t, srv.URL, map[string]any{"max_response_bytes": limit})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := sdktest.Collect(ctx, s, sdk.FetchRequest{Kind: sdk.KindCommit, Filters: project("group/sub/app")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "larger than the limit of 1048576 bytes (1 MiB); raise max_response_bytes")
	assert.Contains(t, err.Error(), `project "group/sub/app"`)
	assert.Equal(t, int64(1), endless.Requests(), "a body over the limit is not fetched again")
	assert.Empty(t, waits.Recorded())
	assert.Less(t, endless.Written(), int64(32<<20), "the client stopped reading near the limit")
}

func TestMaxResponseBytesConfig(t *testing.T) {
	tests := []struct {
		value any
		want  string
	}{
		{0, "max_response_bytes must be positive"},
		{-5, "max_response_bytes must be positive"},
		{"big", "want a number of bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			raw, err := json.Marshal(map[string]any{"token": "t", "max_response_bytes": tt.value})
			require.NoError(t, err)
			_, diags := parseConfig(raw, func(string) string { return "" })
			require.True(t, diags.HasErrors())
			assert.Equal(t, "max_response_bytes", diags[0].Path)
			assert.Contains(t, diags[0].Summary+" "+diags[0].Detail, tt.want)
		})
	}
	cfg, diags := parseConfig(json.RawMessage(`{"token":"t"}`), func(string) string { return "" })
	require.False(t, diags.HasErrors())
	assert.Equal(t, httpclient.BodyLimit(64<<20), cfg.MaxResponseBytes, "the default")
}
