package gitlab

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/internal/fakes"
	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
)

const testToken = "glpat-s3cr3t-T0KEN-value"

// harness is a source wired to a fake GitLab, with waits and logs captured.
type harness struct {
	fake   *fakes.GitLab
	server *httptest.Server
	source *Source
	logs   *syncBuffer
	mu     sync.Mutex
	waits  []time.Duration
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newHarness(t testing.TB, config map[string]any) *harness {
	t.Helper()
	h := &harness{fake: fakes.NewGitLab(testToken), logs: &syncBuffer{}}
	h.server = httptest.NewServer(h.fake)
	t.Cleanup(h.server.Close)
	policy := retry.Policy{
		Attempts: 4,
		Base:     100 * time.Millisecond,
		Max:      time.Second,
		Rand:     func() float64 { return 0 },
		Sleep:    func(context.Context, time.Duration) error { return nil },
	}
	policy.Sleep = func(_ context.Context, d time.Duration) error {
		h.mu.Lock()
		h.waits = append(h.waits, d)
		h.mu.Unlock()
		return nil
	}
	h.source = New(
		WithEnv(func(string) string { return "" }),
		WithRetry(policy),
		WithLogger(slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
	)
	cfg := map[string]any{"base_url": h.server.URL, "token": testToken}
	for k, v := range config {
		cfg[k] = v
	}
	raw, err := json.Marshal(cfg)
	require.NoError(t, err)
	diags, err := h.source.Configure(context.Background(), raw)
	require.NoError(t, err)
	require.False(t, diags.HasErrors(), "%v", diags)
	return h
}

func (h *harness) fetch(t testing.TB, req sdk.FetchRequest) ([]sdk.Record, error) {
	t.Helper()
	var out []sdk.Record
	err := h.source.Fetch(context.Background(), req, func(r sdk.Record) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

func (h *harness) recordedWaits() []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]time.Duration(nil), h.waits...)
}

func project(p string) map[string][]string { return map[string][]string{"projects": {p}} }

func fakesProject(n int) fakes.GitLabProject {
	return fakes.GenerateGitLabProject(42, "group/sub/app", n, n, n, n)
}
