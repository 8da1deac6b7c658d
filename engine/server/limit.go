package server

import (
	"context"
	"sync/atomic"
)

// limiter caps the runs executing at once; up to queue more wait for a slot.
type limiter struct {
	slots   chan struct{}
	waiting atomic.Int64
	queue   int64
}

func newLimiter(runs, queue int) *limiter {
	return &limiter{slots: make(chan struct{}, runs), queue: int64(queue)}
}

// acquire takes a slot, waiting in the queue when there is room there; it
// returns ErrBusy when there is none, ctx's error when ctx ends first.
func (l *limiter) acquire(ctx context.Context) (release func(), err error) {
	release = func() { <-l.slots }
	select {
	case l.slots <- struct{}{}:
		return release, nil
	default:
	}
	if l.waiting.Add(1) > l.queue {
		l.waiting.Add(-1)
		return nil, ErrBusy
	}
	defer l.waiting.Add(-1)
	select {
	case l.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
