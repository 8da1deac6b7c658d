package durable

import (
	"context"
	"time"

	"go.temporal.io/sdk/workflow"
)

// The engine takes a context.Context; workflow code has a
// workflow.Context, whose blocking calls must be made with the context of
// the coroutine that makes them. A workflowContext carries one to the
// ports, answers Err from it (a cancelled run), and has no deadline or
// Done channel of its own: the run's deadlines travel as values (see
// workflowTime) and are the activities' timeouts.
type workflowContext struct {
	context.Context // values set above the workflow
	wf              workflow.Context
}

type (
	workflowKey struct{}
	deadlineKey struct{}
)

// rootContext is the context.Context of the workflow's own coroutine.
func rootContext(wf workflow.Context) context.Context {
	return workflowContext{Context: context.Background(), wf: wf}
}

func (c workflowContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c workflowContext) Done() <-chan struct{}       { return nil }

func (c workflowContext) Err() error {
	if c.wf.Err() != nil {
		return context.Canceled
	}
	return c.Context.Err()
}

func (c workflowContext) Value(key any) any {
	if key == (workflowKey{}) {
		return c.wf
	}
	return c.Context.Value(key)
}

// workflowOf is the workflow context a call made with ctx blocks on.
func workflowOf(ctx context.Context) workflow.Context {
	return ctx.Value(workflowKey{}).(workflow.Context)
}

// deadlineOf is the run's deadline for a call made with ctx.
func deadlineOf(ctx context.Context) (time.Time, bool) {
	t, ok := ctx.Value(deadlineKey{}).(time.Time)
	return t, ok
}

// workflowTime is a durable run's time: the workflow's clock, and
// deadlines carried to the activities as their timeouts.
type workflowTime struct{ wf workflow.Context }

func (t workflowTime) Now() time.Time { return workflow.Now(t.wf) }

func (t workflowTime) WithDeadline(ctx context.Context, d time.Time) (context.Context, context.CancelFunc) {
	if cur, ok := deadlineOf(ctx); ok && cur.Before(d) {
		d = cur
	}
	return context.WithValue(ctx, deadlineKey{}, d), func() {}
}

// workflowPool runs steps on workflow coroutines, each with a context of
// its own, and hands back their nodes through a workflow channel.
type workflowPool struct {
	wf   workflow.Context
	done workflow.Channel
}

func newWorkflowPool(wf workflow.Context, size int) *workflowPool {
	return &workflowPool{wf: wf, done: workflow.NewBufferedChannel(wf, size)}
}

func (p *workflowPool) Go(ctx context.Context, f func(context.Context) int) {
	workflow.Go(p.wf, func(wf workflow.Context) {
		n := f(workflowContext{Context: ctx, wf: wf})
		p.done.Send(wf, n)
	})
}

func (p *workflowPool) Next() int {
	var n int
	p.done.Receive(p.wf, &n)
	return n
}
