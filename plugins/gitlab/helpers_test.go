package gitlab

import (
	"context"
	"log/slog"
	"maps"
	"net/http/httptest"
	"testing"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

const testToken = "glpat-s3cr3t-T0KEN-value"

// harness is a source wired to a fake GitLab, with waits and logs captured.
type harness struct {
	fake   *fakes.GitLab
	server *httptest.Server
	source *Source
	logs   *plugintest.Buffer
	waits  plugintest.Waits
}

func newHarness(t testing.TB, config map[string]any) *harness {
	t.Helper()
	h := &harness{fake: fakes.NewGitLab(testToken), logs: &plugintest.Buffer{}}
	h.server = httptest.NewServer(h.fake)
	t.Cleanup(h.server.Close)
	h.source = New(
		WithEnv(func(string) string { return "" }),
		WithRetry(h.waits.Policy()),
		WithLogger(slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
	)
	cfg := map[string]any{"base_url": h.server.URL, "token": testToken}
	maps.Copy(cfg, config)
	plugintest.Configure(t, h.source, cfg)
	return h
}

func (h *harness) fetch(t testing.TB, req sdk.FetchRequest) ([]sdk.Record, error) {
	t.Helper()
	return sdktest.Collect(context.Background(), h.source, req)
}

func project(p string) map[string][]string { return map[string][]string{"projects": {p}} }

func fakesProject(n int) fakes.GitLabProject {
	return fakes.GenerateGitLabProject(42, "group/sub/app", n, n, n, n)
}
