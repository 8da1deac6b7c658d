package host2plugin

import "sync"

// chunkPool lends Fetch streams their chunk buffers and takes them back
// once gRPC has written them. Unlike gRPC's default pool it does not zero
// a buffer it lends, which for a 1 MiB buffer costs more than a one-record
// fetch: a chunk is written from its start, and only what was written is
// sent. One pool serves a plugin process's Fetch calls.
type chunkPool struct {
	pool sync.Pool
}

// Get returns a buffer of length n.
func (p *chunkPool) Get(n int) *[]byte {
	if b, ok := p.pool.Get().(*[]byte); ok && cap(*b) >= n {
		*b = (*b)[:n]
		return b
	}
	b := make([]byte, n)
	return &b
}

// Put takes a buffer back, unless a huge record grew it well past a
// chunk: keeping that would hold its memory for the next small fetch.
func (p *chunkPool) Put(b *[]byte) {
	if cap(*b) <= 2*chunkBytes {
		p.pool.Put(b)
	}
}
