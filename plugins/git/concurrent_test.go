package git

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// first is the handle Configure opened: calls one at a time always use it.
func (s *Source) first() *handle {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	return s.pool.all[0]
}

// firstCall is a call on the first handle, for tests of a call's parts.
func (s *Source) firstCall() *call { return &call{Source: s, repo: s.first().repo} }

// concurrentEnd is the newest commit of the concurrency tests' repository.
var concurrentEnd = time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)

// concurrentFetches exercise the walk's every mode, with stats (the
// config's default) and without.
var concurrentFetches = []sdk.FetchRequest{
	{Limit: 40},
	{Since: concurrentEnd.Add(-120 * time.Hour)},
	{Filters: map[string][]string{"path": {"payments/ledger"}}},
	{Filters: map[string][]string{"author": {"bob"}, "with_stats": {"false"}}},
	{Filters: map[string][]string{"revisions": {"v0.1.0..v0.3.0"}}},
	{Filters: map[string][]string{"author": {"nobody at all"}}},
}

// concurrentGrounds read the history index, the tree listing and tags.
var concurrentGrounds = []sdk.GroundRequest{
	{Terms: []sdk.Term{{Kind: sdk.TermAuthor, Value: "alice"}, {Kind: sdk.TermPath, Value: "ledger"}}},
	{Terms: []sdk.Term{{Kind: sdk.TermRef, Value: "v0.2.0"}, {Kind: sdk.TermRef, Value: "latest release"}, {Kind: sdk.TermProject, Value: "nope"}}},
	{Terms: []sdk.Term{{Kind: sdk.TermAuthor, Value: "Carol"}}, Since: concurrentEnd.AddDate(0, 0, -7), Until: concurrentEnd},
}

// fetchJSON is the records req fetches, as JSON, or the error.
func fetchJSON(ctx context.Context, s *Source, req sdk.FetchRequest, emit func(sdk.Record)) (string, error) {
	var recs []sdk.Record
	err := s.Fetch(ctx, req, func(r sdk.Record) error {
		recs = append(recs, r)
		if emit != nil {
			emit(r)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(recs)
	return string(b), err
}

// groundJSON is Ground's answer to req as JSON, or the error.
func groundJSON(ctx context.Context, s *Source, req sdk.GroundRequest) (string, error) {
	resp, err := s.Ground(ctx, req)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(resp)
	return string(b), err
}

// oneByOne is what each request answers when run alone, on a source of
// its own: fetches then groundings.
func oneByOne(t *testing.T, dir string) []string {
	t.Helper()
	s := configured(t, pathConfig(dir))
	var want []string
	for _, req := range concurrentFetches {
		got, err := fetchJSON(context.Background(), s, req, nil)
		require.NoError(t, err)
		want = append(want, got)
	}
	for _, req := range concurrentGrounds {
		got, err := groundJSON(context.Background(), s, req)
		require.NoError(t, err)
		want = append(want, got)
	}
	return want
}

// runRequest runs request i of oneByOne's order.
func runRequest(ctx context.Context, s *Source, i int) (string, error) {
	if i < len(concurrentFetches) {
		return fetchJSON(ctx, s, concurrentFetches[i], nil)
	}
	return groundJSON(ctx, s, concurrentGrounds[i-len(concurrentFetches)])
}

// TestConcurrentRequests runs every request three times at once on a
// fresh source (its caches filled concurrently, more calls than handles):
// each answers exactly as it does alone.
func TestConcurrentRequests(t *testing.T) {
	dir := largeRepo(t, 400, concurrentEnd)
	want := oneByOne(t, dir)
	s := configured(t, pathConfig(dir))
	const rounds = 3
	got := make([]string, rounds*len(want))
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for k := range got {
		wg.Go(func() { got[k], errs[k] = runRequest(context.Background(), s, k%len(want)) })
	}
	wg.Wait()
	for k := range got {
		if assert.NoError(t, errs[k], "request %d", k%len(want)) {
			assert.Equal(t, want[k%len(want)], got[k], "request %d", k%len(want))
		}
	}
	assert.LessOrEqual(t, s.pool.opened(), maxHandles, "handles stay bounded")
}

// blockedFetch starts a fetch of the whole history whose emit blocks on
// its first record until release is closed: it holds its handle. It
// returns once the fetch holds it, and the fetch's error channel.
func blockedFetch(t *testing.T, s *Source, release <-chan struct{}) <-chan error {
	t.Helper()
	started, done := make(chan struct{}), make(chan error, 1)
	go func() {
		var once sync.Once
		done <- s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error {
			once.Do(func() { close(started); <-release })
			return nil
		})
	}()
	select {
	case <-started:
	case err := <-done:
		require.FailNow(t, "the blocked fetch ended", "%v", err)
	}
	return done
}

// releaseOnce closes ch when the test ends, unless it was closed already,
// so a failed test leaves no fetch blocked.
func releaseOnce(t *testing.T) (chan struct{}, func()) {
	ch := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(ch) }) }
	t.Cleanup(release)
	return ch, release
}

// TestFastBesideSlow: while one fetch is stopped in the middle of its
// walk, other fetches and groundings complete, with their answers alone.
func TestFastBesideSlow(t *testing.T) {
	dir := largeRepo(t, 400, concurrentEnd)
	want := oneByOne(t, dir)
	s := configured(t, pathConfig(dir))
	ch, release := releaseOnce(t)
	slow := blockedFetch(t, s, ch)
	// A deadline only so that a regression fails instead of hanging.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i := range want {
		got, err := runRequest(ctx, s, i)
		require.NoError(t, err, "request %d beside the blocked fetch", i)
		assert.Equal(t, want[i], got, "request %d", i)
	}
	assert.Equal(t, 2, s.pool.opened(), "one handle for the blocked fetch, one for the rest in turn")
	release()
	require.NoError(t, <-slow)
}

// TestHandlesBusy: with every handle held, a call waits until its context
// is done and says why; a waiting call gets the first handle given back.
func TestHandlesBusy(t *testing.T) {
	dir := shopRepo(t)
	s := configured(t, pathConfig(dir))
	ch, release := releaseOnce(t)
	var blocked []<-chan error
	for range maxHandles {
		blocked = append(blocked, blockedFetch(t, s, ch))
	}
	require.Equal(t, maxHandles, s.pool.opened())

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Fetch(cancelled, sdk.FetchRequest{}, func(sdk.Record) error { return nil })
	require.Error(t, err)
	assert.Equal(t, sdk.KindDeadline, sdk.KindOf(err), "%v", err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), fmt.Sprintf("all %d repository handles stayed busy", maxHandles))

	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	_, err = s.Ground(expired, sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermAuthor, Value: "alice"}}})
	require.Error(t, err)
	assert.Equal(t, sdk.KindDeadline, sdk.KindOf(err), "%v", err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)

	waiting := make(chan error, 1)
	go func() {
		_, err := fetchJSON(context.Background(), s, sdk.FetchRequest{}, nil)
		waiting <- err
	}()
	release()
	require.NoError(t, <-waiting, "the waiting fetch got a handle")
	for _, done := range blocked {
		require.NoError(t, <-done)
	}
	assert.Equal(t, maxHandles, s.pool.opened(), "no handle beyond the bound")
}

// TestConfigureWhileFetching reconfigures the source between two
// repositories while fetches and groundings run: each answers as one of
// the repositories does alone, none fails.
func TestConfigureWhileFetching(t *testing.T) {
	dirs := []string{shopRepo(t), largeRepo(t, 400, concurrentEnd)}
	fetch, ground := sdk.FetchRequest{Limit: 5}, concurrentGrounds[0]
	var wantFetch, wantGround []string
	for _, dir := range dirs {
		s := configured(t, pathConfig(dir))
		f, err := fetchJSON(context.Background(), s, fetch, nil)
		require.NoError(t, err)
		g, err := groundJSON(context.Background(), s, ground)
		require.NoError(t, err)
		wantFetch, wantGround = append(wantFetch, f), append(wantGround, g)
	}
	s := configured(t, pathConfig(dirs[0]))
	const workers, calls = 4, 10
	type answer struct {
		fetch, ground string
		err           error
	}
	answers := make([][]answer, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for range calls {
				var a answer
				a.fetch, a.err = fetchJSON(context.Background(), s, fetch, nil)
				if a.err == nil {
					a.ground, a.err = groundJSON(context.Background(), s, ground)
				}
				answers[w] = append(answers[w], a)
			}
		})
	}
	for i := range 8 {
		diags, err := s.Configure(context.Background(), json.RawMessage(pathConfig(dirs[(i+1)%2])))
		require.NoError(t, err)
		require.False(t, diags.HasErrors(), "%+v", diags)
	}
	wg.Wait()
	for w := range answers {
		for _, a := range answers[w] {
			if assert.NoError(t, a.err) {
				assert.Contains(t, wantFetch, a.fetch)
				assert.Contains(t, wantGround, a.ground)
			}
		}
	}
}
