package runner

import (
	"context"
	"time"
)

// Time is what a run reads of time besides its stamps: the clock its TTL
// is measured on, and the deadlines of its plugin and agent calls. The
// default is the real clock and context deadlines; a durable run gives
// its workflow's deterministic time, whose deadlines its activities carry.
type Time interface {
	Now() time.Time
	// WithDeadline bounds the calls made with the returned context by t.
	WithDeadline(ctx context.Context, t time.Time) (context.Context, context.CancelFunc)
}

// Pool runs the steps the decision core hands off beside the one that
// coordinates: goroutines by default; a durable run gives its workflow's
// coroutines, which the workflow schedules deterministically.
type Pool interface {
	// Go runs f concurrently with a context made from ctx for it: a
	// workflow's coroutine makes its calls with a context of its own.
	Go(ctx context.Context, f func(ctx context.Context) int)
	// Next waits for an f started by Go to return and gives its value.
	Next() int
}

// RealTime is the wall clock and context deadlines, the default Time.
func RealTime() Time { return realTime{} }

type realTime struct{}

func (realTime) Now() time.Time { return time.Now() }

func (realTime) WithDeadline(ctx context.Context, t time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(ctx, t)
}

// goPool runs each f on a goroutine of its own; at most size are waited
// for at once without blocking their senders.
type goPool chan int

func newGoPool(size int) Pool { return make(goPool, size) }

func (p goPool) Go(ctx context.Context, f func(context.Context) int) { go func() { p <- f(ctx) }() }

func (p goPool) Next() int { return <-p }
