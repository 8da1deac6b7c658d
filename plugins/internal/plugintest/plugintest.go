// Package plugintest holds what the built-in plugins' tests share: a
// fetch that must succeed, a log buffer safe for concurrent writers, a retry policy that records its
// waits instead of sleeping, and the engine ports (sources, agents) backed
// by fixed records and one agent, to run a plugin under the real executor.
package plugintest

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// Buffer is a bytes.Buffer safe for concurrent writers, for captured logs.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Waits records the waits of a retry policy instead of sleeping them.
type Waits struct {
	mu    sync.Mutex
	waits []time.Duration
}

// Sleep records d and returns at once.
func (w *Waits) Sleep(_ context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waits = append(w.waits, d)
	return nil
}

// Recorded returns the waits so far, in order.
func (w *Waits) Recorded() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.waits)
}

// Policy is a deterministic retry policy whose waits w records: 4
// attempts, backoff steps of 100ms doubling up to 1s, the random half of
// the jitter always zero (so 50ms, 100ms, 200ms without Retry-After).
func (w *Waits) Policy() retry.Policy {
	return retry.Policy{Attempts: 4, Base: 100 * time.Millisecond, Max: time.Second, Rand: func() float64 { return 0 }, Sleep: w.Sleep}
}

// Records is an engine source port that answers every retrieval, of any
// source, with the same records.
type Records []sdk.Record

// Fetch emits every record.
func (s Records) Fetch(_ context.Context, _ string, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
	for _, r := range s {
		if err := emit(r); err != nil {
			return err
		}
	}
	return nil
}

// OneAgent is an engine agent port that serves every agent of the rules
// with one sdk.Agent.
type OneAgent struct{ Agent sdk.Agent }

// Invoke calls the agent, whatever agent name the rules gave.
func (o OneAgent) Invoke(ctx context.Context, _ string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	return o.Agent.Invoke(ctx, req)
}

// Configure configures src with cfg (as JSON) and requires it to succeed
// without error diagnostics.
func Configure(t testing.TB, src sdk.Source, cfg map[string]any) {
	t.Helper()
	raw, err := json.Marshal(cfg)
	require.NoError(t, err)
	diags, err := src.Configure(t.Context(), raw)
	require.NoError(t, err)
	require.False(t, diags.HasErrors(), "diagnostics: %+v", diags)
}

// Fetch collects the records of a fetch that must succeed.
func Fetch(t testing.TB, src sdk.Source, req sdk.FetchRequest) []sdk.Record {
	t.Helper()
	out, err := sdktest.Collect(t.Context(), src, req)
	require.NoError(t, err)
	return out
}

// Said is what a fetch put out as text, to check a secret is in none of
// it: each emitted record as JSON, then the error's text when it failed.
func Said(t testing.TB, src sdk.Source, req sdk.FetchRequest) ([]string, error) {
	t.Helper()
	var said []string
	err := src.Fetch(t.Context(), req, func(r sdk.Record) error {
		b, err := json.Marshal(r)
		require.NoError(t, err)
		said = append(said, string(b))
		return nil
	})
	if err != nil {
		said = append(said, err.Error())
	}
	return said, err
}
