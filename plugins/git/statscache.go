package git

import (
	"container/list"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// Bounds of the stats cache: a long-running plugin (nous serve) keeps the
// stats of the commits it has counted, the most recently used first.
const (
	maxCachedStats      = 100_000  // commits
	maxCachedStatsBytes = 16 << 20 // their file names and counts
)

// statsKey names one computation: a commit against its first parent, or as
// a root (zero parent: a root commit or a shallow clone's boundary, which
// deepening the clone turns into another key). Neither ever changes.
type statsKey struct {
	commit, parent plumbing.Hash
}

// statsCache is a least-recently-used cache of commit stats, bounded in
// entries and bytes, safe for concurrent fetches.
type statsCache struct {
	mu    sync.Mutex
	order *list.List // of *statsEntry, most recently used first
	byKey map[statsKey]*list.Element
	bytes int
}

type statsEntry struct {
	key   statsKey
	stats []fileStat
	size  int
}

func newStatsCache() *statsCache {
	return &statsCache{order: list.New(), byKey: map[statsKey]*list.Element{}}
}

// get returns the stats of key, if cached.
func (c *statsCache) get(key statsKey) ([]fileStat, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*statsEntry).stats, true
}

// put caches stats for key, evicting the least recently used beyond the
// bounds. Stats larger than the whole cache are not kept.
func (c *statsCache) put(key statsKey, stats []fileStat) {
	size := statsSize(stats)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok || size > maxCachedStatsBytes {
		return
	}
	c.byKey[key] = c.order.PushFront(&statsEntry{key: key, stats: stats, size: size})
	c.bytes += size
	for c.order.Len() > maxCachedStats || c.bytes > maxCachedStatsBytes {
		last := c.order.Back()
		e := last.Value.(*statsEntry)
		c.order.Remove(last)
		delete(c.byKey, e.key)
		c.bytes -= e.size
	}
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
