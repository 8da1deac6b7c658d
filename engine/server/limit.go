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

// ticket is a run's place: a slot, or a place in the queue until wait
// takes one.
type ticket struct {
	l      *limiter
	held   bool // a slot
	queued bool // a place in the queue
}

// enter takes a free slot or, when there is none, a place in the queue; it
// returns ErrBusy when the queue is full (or there is none).
func (l *limiter) enter() (*ticket, error) {
	select {
	case l.slots <- struct{}{}:
		return &ticket{l: l, held: true}, nil
	default:
	}
	if l.waiting.Add(1) > l.queue {
		l.waiting.Add(-1)
		return nil, ErrBusy
	}
	return &ticket{l: l, queued: true}, nil
}

// wait takes a slot, leaving the queue; it returns ctx's error when ctx
// ends first, and the ticket is then out of the queue with no slot.
func (t *ticket) wait(ctx context.Context) error {
	if t.held {
		return nil
	}
	if !t.queued {
		return context.Canceled // left already
	}
	defer func() { t.queued = false; t.l.waiting.Add(-1) }()
	select {
	case t.l.slots <- struct{}{}:
		t.held = true
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// leave frees the slot or the place in the queue the ticket holds.
func (t *ticket) leave() {
	switch {
	case t.held:
		t.held = false
		<-t.l.slots
	case t.queued:
		t.queued = false
		t.l.waiting.Add(-1)
	}
}
