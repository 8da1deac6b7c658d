package sdk

import (
	"context"
	"fmt"
	"sync"
	"time"

	pb "github.com/nous-dev/nous/sdk/proto/pluginv1"
)

// Chunking of Fetch streams: a chunk is sent when it holds chunkRecords
// records or about chunkBytes bytes, or chunkAge after its first record, so
// a fast source pays little per record and a slow one's records still
// arrive promptly.
const (
	chunkRecords = 512
	chunkBytes   = 1 << 20
	chunkAge     = 10 * time.Millisecond
)

// chunker batches the records a plugin's Fetch emits into FetchResponse
// messages. Its timer sends from another goroutine, hence the lock: a gRPC
// stream allows only one sender at a time.
type chunker struct {
	ctx   context.Context
	send  func(*pb.FetchResponse) error
	limit int

	mu      sync.Mutex
	emitted int
	pending []*pb.Record
	bytes   int
	timer   *time.Timer
	err     error // a failed timed send, returned by the next emit
	closed  bool
}

func (c *chunker) emit(r Record) error {
	if err := c.ctx.Err(); err != nil {
		return &Error{Kind: KindDeadline, Message: "fetch ended by the host: " + err.Error(), Err: err}
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
	p, err := recordToProto(r)
	if err != nil {
		return fmt.Errorf("emit: %w", err)
	}
	c.pending = append(c.pending, p)
	c.bytes += approxSize(r)
	c.emitted++
	if len(c.pending) >= chunkRecords || c.bytes >= chunkBytes {
		return c.flushLocked()
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(chunkAge, c.flushTimed)
	}
	return nil
}

// flushTimed sends a chunk that has waited chunkAge.
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
	if len(c.pending) == 0 {
		return nil
	}
	err := c.send(&pb.FetchResponse{Records: c.pending})
	c.pending, c.bytes = nil, 0
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
	if c.err != nil {
		return c.err
	}
	return c.flushLocked()
}

// approxSize estimates a record's encoded size without encoding it.
func approxSize(r Record) int {
	n := 64 + len(r.ID) + len(r.Source) + len(r.Kind) + len(r.Title) + len(r.Body) + len(r.URL) + len(r.Author)
	for k, v := range r.Fields {
		n += len(k) + 16
		switch v := v.(type) {
		case string:
			n += len(v)
		case []string:
			for _, s := range v {
				n += len(s) + 2
			}
		}
	}
	return n
}
