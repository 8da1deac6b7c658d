package server_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/lint"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// onboardingIntent is an intent the default rules lack.
const onboardingIntent = `intent "query_onboarding" {
  pattern = "chain"

  detect {
    when       = "query matches '(?i)\\\\bonboarding\\\\b'"
    confidence = 0.8
  }

  hypothesis "retrieve" {
    description = "Retrieve onboarding documents"
    action      = "retrieve"
  }
}
`

// brokenIntent does not parse: its block is never closed.
const brokenIntent = `intent "query_onboarding" {
  pattern = "chain"
`

// rulesDir is a directory holding a copy of the default rules.
func rulesDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	defaults := examples.DefaultRules()
	names, err := fs.Glob(defaults, "*.hcl")
	require.NoError(t, err)
	for _, name := range names {
		b, err := fs.ReadFile(defaults, name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o600))
	}
	return dir
}

// releases counts the releases of every snapshot a loader built, by digest.
type releases struct {
	mu     sync.Mutex
	counts map[*server.Snapshot]int
}

func (r *releases) of(s *server.Snapshot) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counts[s]
}

// loaderOf loads and lints dir as nous serve does, and counts releases.
func loaderOf(dir string, rel *releases) server.Loader {
	rel.counts = map[*server.Snapshot]int{}
	return func(context.Context) (*server.Snapshot, []server.Diagnostic) {
		rs, diags := rules.Load(dir)
		diags = lint.Run(rs, diags)
		out := server.DiagnosticsOf(diags, nil)
		if diags.HasErrors() {
			return nil, out
		}
		var snap *server.Snapshot
		snap = server.NewSnapshot(rs, nil, nil, func() {
			rel.mu.Lock()
			defer rel.mu.Unlock()
			rel.counts[snap]++
		})
		return snap, out
	}
}

// newReloader serves dir's rules, reloading through load.
func newReloader(t *testing.T, dir string, load server.Loader, cfg server.ReloadConfig) *server.Reloader {
	t.Helper()
	first, diags := load(context.Background())
	require.NotNil(t, first, "%v", diags)
	cfg.Load = load
	r, err := server.NewReloader(first, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func intentNames(s *server.Snapshot) []string {
	var names []string
	for _, in := range s.Rules.Intents {
		names = append(names, in.Name)
	}
	return names
}

// replace saves content over path as many editors do: written to a
// temporary file, renamed over the old one.
func replace(t testing.TB, path, content string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".swp")
	require.NoError(t, os.WriteFile(tmp, []byte(content), 0o600))
	require.NoError(t, os.Rename(tmp, path))
}

// TestReloadSwapsOnlyGoodRules: a new intent becomes visible, a broken edit
// keeps the last good rules and reports where it is broken, fixing it swaps
// again.
func TestReloadSwapsOnlyGoodRules(t *testing.T) {
	dir := rulesDir(t)
	var rel releases
	r := newReloader(t, dir, loaderOf(dir, &rel), server.ReloadConfig{})
	ctx := context.Background()
	first, done := r.Acquire()
	done()
	require.NotContains(t, intentNames(first), "query_onboarding")
	assert.Nil(t, r.Status().LastReload, "no reload yet")

	file := filepath.Join(dir, "onboarding.hcl")
	require.NoError(t, os.WriteFile(file, []byte(onboardingIntent), 0o600))
	res := r.Reload(ctx)
	require.True(t, res.OK, "%v", res.Diagnostics)
	good, done := r.Acquire()
	done()
	assert.Contains(t, intentNames(good), "query_onboarding")
	assert.NotEqual(t, first.Digest, good.Digest)
	assert.Equal(t, 1, rel.of(first), "the replaced snapshot is released, once")

	require.NoError(t, os.WriteFile(file, []byte(brokenIntent), 0o600))
	res = r.Reload(ctx)
	require.False(t, res.OK)
	require.NotEmpty(t, res.Diagnostics)
	assert.Equal(t, "error", res.Diagnostics[0].Severity)
	assert.Regexp(t, `onboarding\.hcl:\d+:\d+$`, res.Diagnostics[0].Range)
	st := r.Status()
	assert.Equal(t, good.Digest, st.Digest, "the last good rules keep serving")
	assert.Equal(t, good.Files, st.Files)
	require.NotNil(t, st.LastReload)
	assert.Equal(t, res, *st.LastReload, "the failed reload is reported")
	still, done := r.Acquire()
	done()
	assert.Same(t, good, still)
	assert.Zero(t, rel.of(good))

	require.NoError(t, os.WriteFile(file, []byte(onboardingIntent+"\n# fixed\n"), 0o600))
	res = r.Reload(ctx)
	require.True(t, res.OK, "%v", res.Diagnostics)
	fixed, done := r.Acquire()
	done()
	assert.NotSame(t, good, fixed)
	assert.Contains(t, intentNames(fixed), "query_onboarding")
	assert.True(t, r.Status().LastReload.OK)
	assert.NotNil(t, r.Status().LastReload.Diagnostics, "an empty list, not null")

	require.NoError(t, r.Close())
	assert.Equal(t, 1, rel.of(fixed), "Close releases the current snapshot")
	assert.False(t, r.Reload(ctx).OK, "no reload after Close")
	for _, s := range []*server.Snapshot{first, good, fixed} {
		assert.Equal(t, 1, rel.of(s))
	}
}

// TestRunsKeepTheirSnapshot: a run that acquired a snapshot keeps it across
// reloads; it is released when the last run ends, not before.
func TestRunsKeepTheirSnapshot(t *testing.T) {
	dir := rulesDir(t)
	var rel releases
	r := newReloader(t, dir, loaderOf(dir, &rel), server.ReloadConfig{})
	old, endA := r.Acquire()
	_, endB := r.Acquire()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "onboarding.hcl"), []byte(onboardingIntent), 0o600))
	require.True(t, r.Reload(context.Background()).OK)

	next, endC := r.Acquire()
	assert.NotSame(t, old, next, "new runs start on the new rules")
	endA()
	endA() // a release called twice counts once
	assert.Zero(t, rel.of(old), "a run still uses it")
	endB()
	assert.Equal(t, 1, rel.of(old))
	endC()
	assert.Zero(t, rel.of(next), "the current snapshot stays")
}

// TestWatchReloadsOnEditorSaves saves the rules the ways editors do and
// waits for the reloads they cause: a rename over the file, a write in
// place, a new file in the directory.
func TestWatchReloadsOnEditorSaves(t *testing.T) {
	dir := rulesDir(t)
	var rel releases
	results := make(chan server.ReloadResult, 16)
	r := newReloader(t, dir, loaderOf(dir, &rel), server.ReloadConfig{
		Watch:   []string{dir},
		Observe: func(res server.ReloadResult) { results <- res },
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Watch(ctx)

	file := filepath.Join(dir, "onboarding.hcl")
	steps := []struct {
		name   string
		save   func()
		ok     bool
		intent bool
	}{
		{"a new file", func() { require.NoError(t, os.WriteFile(file, []byte(onboardingIntent), 0o600)) }, true, true},
		{"a broken rename-and-replace", func() { replace(t, file, brokenIntent) }, false, true},
		{"a fixed rename-and-replace", func() { replace(t, file, onboardingIntent+"\n") }, true, true},
		{"a removed file", func() { require.NoError(t, os.Remove(file)) }, true, false},
	}
	for _, step := range steps {
		step.save()
		// A save may be seen as more than one change: wait for the reload
		// that sees all of it.
		for {
			var res server.ReloadResult
			select {
			case res = <-results:
			case <-time.After(time.Minute):
				require.FailNow(t, "no reload after "+step.name)
			}
			s, done := r.Acquire()
			done()
			if res.OK == step.ok && (!res.OK || slices.Contains(intentNames(s), "query_onboarding") == step.intent) {
				assert.Equal(t, s.Digest, r.Status().Digest, step.name)
				break
			}
		}
	}
}

// TestReloadWhileRunsFlow reloads over and over while runs acquire and
// release snapshots: no run ever holds a released snapshot, and every
// snapshot but the current one is released exactly once.
func TestReloadWhileRunsFlow(t *testing.T) {
	dir := rulesDir(t)
	var (
		rel   releases
		built []*server.Snapshot
		mu    sync.Mutex
	)
	load := loaderOf(dir, &rel)
	counting := func(ctx context.Context) (*server.Snapshot, []server.Diagnostic) {
		s, diags := load(ctx)
		mu.Lock()
		built = append(built, s)
		mu.Unlock()
		return s, diags
	}
	r := newReloader(t, dir, counting, server.ReloadConfig{})
	var stop atomic.Bool
	var runs sync.WaitGroup
	for range 8 {
		runs.Go(func() {
			for !stop.Load() {
				s, done := r.Acquire()
				assert.Zero(t, rel.of(s), "a run holds a released snapshot")
				done()
			}
		})
	}
	for i := range 20 {
		content := onboardingIntent
		if i%3 == 2 {
			content = brokenIntent
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, "onboarding.hcl"), []byte(content), 0o600))
		r.Reload(context.Background())
	}
	stop.Store(true)
	runs.Wait()
	current, done := r.Acquire()
	done()
	for _, s := range built {
		switch {
		case s == nil: // broken: nothing built
		case s == current:
			assert.Zero(t, rel.of(s))
		default:
			assert.Equal(t, 1, rel.of(s))
		}
	}
}

func TestReloadKeepsABoundedNumberOfDiagnostics(t *testing.T) {
	var diags []server.Diagnostic
	for i := range 150 {
		diags = append(diags, server.Diagnostic{Severity: "warning", Summary: fmt.Sprint("w", i)})
	}
	diags = append(diags, server.Diagnostic{Severity: "error", Summary: "the error"})
	first := server.NewSnapshot(defaultRules(t), nil, nil, nil)
	r, err := server.NewReloader(first, server.ReloadConfig{Load: func(context.Context) (*server.Snapshot, []server.Diagnostic) {
		return nil, diags
	}})
	require.NoError(t, err)
	res := r.Reload(context.Background())
	require.Len(t, res.Diagnostics, 100)
	assert.Equal(t, "the error", res.Diagnostics[0].Summary, "errors first")
	assert.Equal(t, "52 more diagnostics not shown", res.Diagnostics[99].Summary)
}

func TestNewReloaderRefusesWhatItCannotWatch(t *testing.T) {
	first := server.NewSnapshot(defaultRules(t), nil, nil, nil)
	load := func(context.Context) (*server.Snapshot, []server.Diagnostic) { return nil, nil }
	_, err := server.NewReloader(first, server.ReloadConfig{Load: load, Watch: []string{filepath.Join(t.TempDir(), "missing.hcl")}})
	assert.ErrorContains(t, err, "missing.hcl")
	_, err = server.NewReloader(first, server.ReloadConfig{})
	assert.ErrorContains(t, err, "needs a first snapshot and a loader")
}

// TestWatchFollowsTheRulesAReloadBrings: a server started on rules that
// are no files (the embedded defaults) finds a ./.nous made later on a
// reload (SIGHUP), and from then on reloads when its files change.
func TestWatchFollowsTheRulesAReloadBrings(t *testing.T) {
	root := t.TempDir()
	nous := filepath.Join(root, ".nous")
	load := func(context.Context) (*server.Snapshot, []server.Diagnostic) {
		if _, err := os.Stat(nous); err != nil {
			rs, diags := rules.LoadFS(examples.DefaultRules())
			return server.NewSnapshot(rs, nil, nil, nil), server.DiagnosticsOf(diags, nil)
		}
		rs, diags := rules.Load(nous)
		if diags.HasErrors() {
			return nil, server.DiagnosticsOf(diags, nil)
		}
		snap := server.NewSnapshot(rs, nil, nil, nil)
		snap.Watch = []string{nous}
		return snap, server.DiagnosticsOf(diags, nil)
	}
	results := make(chan server.ReloadResult, 16)
	r := newReloader(t, root, load, server.ReloadConfig{Debounce: 10 * time.Millisecond,
		Observe: func(res server.ReloadResult) { results <- res }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Watch(ctx)

	require.NoError(t, os.Rename(rulesDir(t), nous))
	res := r.Reload(ctx) // SIGHUP
	require.True(t, res.OK, "%v", res.Diagnostics)
	<-results
	require.NoError(t, os.WriteFile(filepath.Join(nous, "onboarding.hcl"), []byte(onboardingIntent), 0o600))
	for {
		select {
		case res = <-results:
		case <-time.After(time.Minute):
			require.FailNow(t, "no reload after a file was added to the rules a reload brought")
		}
		s, done := r.Acquire()
		done()
		if res.OK && slices.Contains(intentNames(s), "query_onboarding") {
			return
		}
	}
}
