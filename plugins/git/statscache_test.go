package git

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStatsCached: a commit's stats are computed once per source; a second
// fetch takes them from the cache, with either engine, and a fetch
// without stats neither reads nor fills it.
func TestStatsCached(t *testing.T) {
	dir := shopRepo(t)
	for _, engine := range statsEngines {
		t.Run(engine.name, func(t *testing.T) {
			s := configured(t, pathConfig(dir))
			engine.set(t, s)
			noStats := plugintest.Fetch(t, s, sdk.FetchRequest{Filters: map[string][]string{"with_stats": {"false"}}})
			assert.Zero(t, s.stats.len(), "no stats asked, none computed")
			first := plugintest.Fetch(t, s, sdk.FetchRequest{})
			require.Len(t, first, len(noStats))
			merges, planted := 0, -1
			for i, r := range first {
				switch {
				case r.Fields["parents"].(int64) > 1:
					merges++
				case planted < 0 && r.Fields["parents"].(int64) == 1:
					planted = i
				}
			}
			require.Positive(t, merges)
			assert.Equal(t, len(first)-merges, s.stats.len(), "every commit's stats cached, merges none")

			// A planted entry answers instead of git or go-git.
			id := first[planted].ID
			key := statsKey{commit: plumbing.NewHash(id), parent: plumbing.NewHash(strings.TrimSpace(runGit(t, dir, nil, "rev-parse", id+"^")))}
			_, ok := s.stats.get(key)
			require.True(t, ok, "a commit is cached against its first parent")
			s.stats.entries.Set(key, []fileStat{{name: "planted", additions: 42}})
			second := plugintest.Fetch(t, s, sdk.FetchRequest{})
			require.Len(t, second, len(first))
			for i := range first {
				if i == planted {
					assert.Equal(t, int64(42), second[i].Fields["additions"])
					assert.Equal(t, []string{"planted"}, second[i].Fields["paths"])
					continue
				}
				assert.Equal(t, first[i].Fields, second[i].Fields, "commit %s", first[i].ID)
			}
		})
	}
}

// TestStatsCacheBounds: once the cache has settled (otter evicts in
// batches), it holds at most maxCachedStatsBytes; it does not keep stats
// larger than itself.
func TestStatsCacheBounds(t *testing.T) {
	key := func(i int) statsKey { return statsKey{commit: plumbing.NewHash(fmt.Sprintf("%040x", i))} }
	one := []fileStat{{name: "a.go", additions: 1}}

	c := newStatsCache()
	flood := 2 * maxCachedStatsBytes / statsSize(one)
	for i := range flood {
		c.put(key(i), one)
	}
	c.entries.CleanUp()
	assert.LessOrEqual(t, c.entries.WeightedSize(), uint64(maxCachedStatsBytes), "at most maxCachedStatsBytes")
	assert.Less(t, c.len(), flood)
	assert.Greater(t, c.len(), flood/4, "it fills up")

	c = newStatsCache()
	big := make([]fileStat, 1000)
	for i := range big {
		big[i] = fileStat{name: strings.Repeat("x", 1000)}
	}
	for i := range 20 { // ~1 MiB each
		c.put(key(i), big)
	}
	c.entries.CleanUp()
	assert.LessOrEqual(t, c.entries.WeightedSize(), uint64(maxCachedStatsBytes), "at most maxCachedStatsBytes")
	assert.Less(t, c.len(), 20)
	huge := make([]fileStat, maxCachedStatsBytes/32)
	c.put(key(99), huge)
	_, ok := c.get(key(99))
	assert.False(t, ok, "stats larger than the cache are not kept")
}

// BenchmarkStatsCached fetches the last 200 hours with stats from a
// source that has counted them before: the cache answers (compare
// BenchmarkGitSince, which computes them).
func BenchmarkStatsCached(b *testing.B) {
	s := benchSource(b, benchRepo(b), true)
	fetch := func() int {
		n := 0
		require.NoError(b, s.Fetch(context.Background(), sdk.FetchRequest{Since: benchSince}, func(sdk.Record) error { n++; return nil }))
		return n
	}
	fetch()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = fetch()
	}
	b.ReportMetric(float64(n), "commits/op")
}
