package git

import (
	"github.com/go-git/go-git/v5/plumbing"
)

// The stats cache's bound: a long-running plugin (nous serve) keeps the
// file names and counts of the commits it has counted.
const maxCachedStatsBytes = 16 << 20

// statsKey names one computation: a commit against its first parent, or as
// a root (zero parent: a root commit or a shallow clone's boundary, which
// deepening the clone turns into another key). Neither ever changes.
type statsKey struct {
	commit, parent plumbing.Hash
}

// statsCache caches commit stats, whatever the configuration.
type statsCache = boundedCache[statsKey, []fileStat]

func newStatsCache() *statsCache {
	return newBoundedCache(maxCachedStatsBytes, func(_ statsKey, stats []fileStat) int { return statsSize(stats) })
}

// statsSize estimates the memory stats hold: the entry, and per file its
// name and counts.
func statsSize(stats []fileStat) int {
	size := 128
	for _, f := range stats {
		size += len(f.name) + 32
	}
	return size
}
