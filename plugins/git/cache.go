package git

import "github.com/maypok86/otter/v2"

// boundedCache is a cache bounded in bytes, as its size function estimates them,
// safe for concurrent calls. A long-running plugin (nous serve) keeps in
// one what it read of a repository and never changes under its key.
// Otter's W-TinyLFU evicts by frequency as well as recency, so one long
// walk does not push out what every question reads.
type boundedCache[K comparable, V any] struct {
	maxBytes int
	size     func(K, V) int
	entries  *otter.Cache[K, V]
}

func newBoundedCache[K comparable, V any](maxBytes int, size func(K, V) int) *boundedCache[K, V] {
	return &boundedCache[K, V]{maxBytes: maxBytes, size: size, entries: otter.Must(&otter.Options[K, V]{
		MaximumWeight: uint64(maxBytes),
		Weigher:       func(k K, v V) uint32 { return uint32(size(k, v)) },
	})}
}

// get returns the value of key, if cached.
func (c *boundedCache[K, V]) get(key K) (V, bool) { return c.entries.GetIfPresent(key) }

// put caches value under key unless it is cached already. A value larger
// than the whole cache is not kept.
func (c *boundedCache[K, V]) put(key K, value V) {
	if c.size(key, value) <= c.maxBytes {
		c.entries.SetIfAbsent(key, value)
	}
}

// len reports how many entries are cached.
func (c *boundedCache[K, V]) len() int { return c.entries.EstimatedSize() }
