package durable

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/nous-dev/nous/engine/runner"
)

// pollEvery is how often a caller reads a run's progress; waitNotice
// is how long a run may go without a worker before Watch.Waiting is told.
const (
	pollEvery  = 100 * time.Millisecond
	waitNotice = 5 * time.Second
)

// Watch is what the caller of Ask hears while its run goes on; either
// func may be nil.
type Watch struct {
	// Progress is told every event, as the in-memory executor tells them.
	Progress func(runner.Event)
	// Waiting is told once when no worker has taken the run after a few
	// seconds: none may be running on the task queue.
	Waiting func()
}

// WorkflowID is the workflow ID of the run named id.
func WorkflowID(id string) string { return "nous-" + id }

// Ask starts in as a workflow on o's task queue and waits for its output,
// telling watch what happens meanwhile. Cancelling ctx cancels the run,
// which ends cancelled with its partial history, as one in memory does.
func Ask(ctx context.Context, c client.Client, o Options, in Input, watch Watch) (*Output, error) {
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: WorkflowID(in.ID), TaskQueue: o.taskQueue(), WorkflowTaskTimeout: workflowTaskTimeout, WorkflowExecutionTimeout: o.RunTimeout,
	}, WorkflowName, in)
	if err != nil {
		return nil, fmt.Errorf("starting the run on Temporal: %w", err)
	}
	done := make(chan struct{})
	var out Output
	var runErr error
	go func() {
		defer close(done)
		runErr = run.Get(context.WithoutCancel(ctx), &out)
	}()
	seen, tick := 0, time.NewTicker(pollEvery)
	defer tick.Stop()
	started, taken := time.Now(), false
	follow := func() {
		if watch.Progress == nil && (taken || watch.Waiting == nil) {
			return // nothing to tell
		}
		n, ok := readProgress(context.WithoutCancel(ctx), c, run, seen, watch.Progress)
		seen, taken = seen+n, taken || ok
		if !taken && watch.Waiting != nil && time.Since(started) > waitNotice {
			watch.Waiting()
			watch.Waiting = nil
		}
	}
	cancelled := false
	for {
		select {
		case <-done:
			follow()
			if runErr != nil {
				return nil, runError(in.ID, runErr)
			}
			return &out, nil
		case <-ctx.Done():
			bg := context.WithoutCancel(ctx)
			if !taken { // no worker holds it: nothing partial to wait for
				_ = c.TerminateWorkflow(bg, run.GetID(), run.GetRunID(), "cancelled by the asker before a worker took it")
				return nil, fmt.Errorf("run %s cancelled before a worker took it", in.ID)
			}
			if !cancelled {
				cancelled = true
				if err := c.CancelWorkflow(bg, run.GetID(), run.GetRunID()); err != nil {
					return nil, fmt.Errorf("cancelling run %s on Temporal: %w", in.ID, err)
				}
			}
			ctx = bg // wait for the partial result
		case <-tick.C:
			follow()
		}
	}
}

// readProgress tells progress (when set) the run's events from the
// seen-th, and says how many it told and whether a worker answered: a
// query fails while no worker has taken the run.
func readProgress(ctx context.Context, c client.Client, run client.WorkflowRun, seen int, progress func(runner.Event)) (int, bool) {
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	v, err := c.QueryWorkflow(qctx, run.GetID(), run.GetRunID(), queryProgress, seen)
	if err != nil {
		return 0, false
	}
	var evs []runner.Event
	if err := v.Get(&evs); err != nil {
		return 0, true
	}
	if progress != nil {
		for _, ev := range evs {
			progress(ev)
		}
	}
	return len(evs), true
}

// runError is why the run failed on Temporal, in its own words: a
// worker's refusal, or what the service says (a time-out, a termination).
func runError(id string, err error) error {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return fmt.Errorf("run %s on Temporal: %s", id, app.Message())
	}
	return fmt.Errorf("run %s on Temporal: %w", id, err)
}
