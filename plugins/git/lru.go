package git

import (
	"container/list"
	"sync"
)

// lru is a least-recently-used cache bounded in entries and in bytes (as
// its size function estimates them), safe for concurrent calls. A long-
// running plugin (nous serve) keeps in one what it read of a repository
// and never changes under its key.
type lru[K comparable, V any] struct {
	maxEntries, maxBytes int
	size                 func(K, V) int

	mu    sync.Mutex
	order *list.List // of *lruEntry, most recently used first
	byKey map[K]*list.Element
	bytes int
}

type lruEntry[K comparable, V any] struct {
	key   K
	value V
	size  int
}

func newLRU[K comparable, V any](maxEntries, maxBytes int, size func(K, V) int) *lru[K, V] {
	return &lru[K, V]{maxEntries: maxEntries, maxBytes: maxBytes, size: size, order: list.New(), byKey: map[K]*list.Element{}}
}

// get returns the value of key, if cached.
func (c *lru[K, V]) get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry[K, V]).value, true
}

// put caches value under key unless it is cached already, evicting the
// least recently used beyond the bounds. A value larger than the whole
// cache is not kept.
func (c *lru[K, V]) put(key K, value V) {
	size := c.size(key, value)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok || size > c.maxBytes {
		return
	}
	c.byKey[key] = c.order.PushFront(&lruEntry[K, V]{key: key, value: value, size: size})
	c.bytes += size
	for c.order.Len() > c.maxEntries || c.bytes > c.maxBytes {
		last := c.order.Back()
		e := last.Value.(*lruEntry[K, V])
		c.order.Remove(last)
		delete(c.byKey, e.key)
		c.bytes -= e.size
	}
}

// len reports how many entries are cached.
func (c *lru[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
