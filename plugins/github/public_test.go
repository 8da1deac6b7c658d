package github

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
)

// TestDefaultIsThePublicAPI: with no base_url and no GITHUB_API_URL the
// source asks https://api.github.com at /repos/… (no /api/v3) with the
// token; the test dials the fake for that host.
func TestDefaultIsThePublicAPI(t *testing.T) {
	fake := fakes.NewGitHub(testToken)
	srv := httptest.NewTLSServer(fake)
	defer srv.Close()
	transport := &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
		},
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // the fake's certificate is not api.github.com's
	}
	env := map[string]string{"GITHUB_TOKEN": testToken}
	s := New(WithEnv(func(k string) string { return env[k] }), WithHTTPClient(&http.Client{Transport: transport}))
	plugintest.Configure(t, s, map[string]any{"repo": testRepo})
	records := plugintest.Fetch(t, s, sdk.FetchRequest{Kind: "issue", Limit: 3})
	assert.Len(t, records, 3)
	for _, uri := range fake.Requests() {
		assert.True(t, strings.HasPrefix(uri, "/repos/octo-org/octo-repo/issues?"), uri)
	}
	assert.Equal(t, 1, fake.Used(true), "the token went to api.github.com")
}
