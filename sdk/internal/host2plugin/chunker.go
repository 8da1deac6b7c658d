package host2plugin

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/toproto"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/grpc/mem"
)

// Chunking of Fetch streams: a chunk is sent when it holds chunkRecords
// records or chunkBytes encoded bytes, or chunkAge after its first record,
// so a fast source pays little per record and a slow one's records still
// arrive promptly.
// 2048 records measured a little faster than 512 over a subprocess.
const (
	chunkRecords = 2048
	chunkBytes   = 768 << 10
	chunkAge     = 10 * time.Millisecond
)

// chunker batches the records a plugin's Fetch emits into FetchResponse
// messages, encoding each record into the chunk's buffer as it is emitted.
// The buffer comes from pool and goes back to it once sent. The
// timer sends from another goroutine, hence the lock: a gRPC stream allows
// only one sender at a time.
type chunker struct {
	ctx   context.Context
	send  func(any) error // the stream's SendMsg, given *wire.Outgoing
	pool  mem.BufferPool  // where sent buffers go back once gRPC has written them
	age   time.Duration   // how long a chunk may wait for more records: chunkAge
	limit int

	mu      sync.Mutex
	emitted int
	buf     *[]byte // the pending chunk's encoded records; nil when none
	pending int     // records in buf
	timer   *time.Timer
	err     error // a failed timed send, returned by the next emit
	closed  bool
}

func (c *chunker) emit(r sdk.Record) error {
	if err := c.ctx.Err(); err != nil {
		return &sdk.Error{Kind: sdk.KindDeadline, Message: "fetch ended by the host: " + err.Error(), Err: err}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.err != nil:
		return c.err
	case c.closed:
		return fmt.Errorf("emit: Fetch has already returned")
	case c.limit > 0 && c.emitted >= c.limit:
		return errLimitReached
	}
	if c.buf == nil {
		c.buf = c.pool.Get(chunkBytes)
		*c.buf = (*c.buf)[:0]
	}
	b, err := toproto.AppendRecord(*c.buf, r)
	*c.buf = b
	if err != nil {
		return fmt.Errorf("emit: %w", err)
	}
	c.pending++
	c.emitted++
	if c.pending >= chunkRecords || len(b) >= chunkBytes {
		return c.flushLocked()
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(c.age, c.flushTimed)
	}
	return nil
}

// flushTimed sends a chunk that has waited c.age.
func (c *chunker) flushTimed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.err != nil {
		return
	}
	c.err = c.flushLocked()
}

func (c *chunker) flushLocked() error {
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if c.pending == 0 {
		return nil
	}
	// The buffer is gRPC's from here on, sent or not.
	err := c.send(&wire.Outgoing{Buf: c.buf, Pool: c.pool})
	c.buf, c.pending = nil, 0
	if err != nil {
		return fmt.Errorf("send records: %w", err)
	}
	return nil
}

// close sends what is pending; nothing is sent after it, because the
// stream ends when the Fetch handler returns.
func (c *chunker) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	err := c.err
	if err == nil {
		err = c.flushLocked()
	}
	if c.buf != nil { // a buffer with nothing sent from it
		c.pool.Put(c.buf)
		c.buf = nil
	}
	return err
}
