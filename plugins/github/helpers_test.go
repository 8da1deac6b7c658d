package github

import (
	"context"
	"log/slog"
	"maps"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

const (
	testToken = "ghp_s3cr3tT0KENvalue1234567890abcdefXYZ"
	testRepo  = "octo-org/octo-repo"
)

// harness is a source wired to a fake GitHub Enterprise (any host but
// api.github.com is one), with waits and logs captured.
type harness struct {
	fake   *fakes.GitHub
	server *httptest.Server
	source *Source
	logs   *plugintest.Buffer
	waits  plugintest.Waits
}

func newHarness(t testing.TB, config map[string]any) *harness {
	t.Helper()
	h := &harness{fake: fakes.NewGitHub(testToken), logs: &plugintest.Buffer{}}
	h.fake.Enterprise = true
	h.server = httptest.NewServer(h.fake)
	t.Cleanup(h.server.Close)
	h.source = New(
		WithEnv(func(string) string { return "" }),
		WithRetry(h.waits.Policy()),
		WithLogger(slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
	)
	cfg := map[string]any{"base_url": h.server.URL, "token": testToken, "repo": testRepo}
	maps.Copy(cfg, config)
	plugintest.Configure(t, h.source, cfg)
	return h
}

func (h *harness) fetch(t testing.TB, req sdk.FetchRequest) ([]sdk.Record, error) {
	t.Helper()
	return sdktest.Collect(context.Background(), h.source, req)
}

// queryOf is the decoded q parameter of a request URI.
func queryOf(t testing.TB, uri string) string {
	t.Helper()
	u, err := url.ParseRequestURI(uri)
	require.NoError(t, err)
	return u.Query().Get("q")
}
