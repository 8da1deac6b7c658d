package durable

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/nous-dev/nous/engine/runner"
)

// pollEvery is how often a caller reads a run's progress.
const pollEvery = 100 * time.Millisecond

// WorkflowID is the workflow ID of the run named id.
func WorkflowID(id string) string { return "nous-" + id }

// Ask starts in as a workflow on o's task queue and waits for its output,
// telling progress (when set) every event as the in-memory executor
// would. Cancelling ctx cancels the run, which ends cancelled with its
// partial history, as one in memory does.
func Ask(ctx context.Context, c client.Client, o Options, in Input, progress func(runner.Event)) (*Output, error) {
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
	follow := func() {
		if progress == nil {
			return
		}
		seen += readProgress(context.WithoutCancel(ctx), c, run, seen, progress)
	}
	cancelled := false
	for {
		select {
		case <-done:
			follow()
			if runErr != nil {
				return nil, fmt.Errorf("run %s on Temporal: %w", in.ID, runErr)
			}
			return &out, nil
		case <-ctx.Done():
			if !cancelled {
				cancelled = true
				if err := c.CancelWorkflow(context.WithoutCancel(ctx), run.GetID(), run.GetRunID()); err != nil {
					return nil, fmt.Errorf("cancelling run %s on Temporal: %w", in.ID, err)
				}
			}
			ctx = context.WithoutCancel(ctx) // wait for the partial result
		case <-tick.C:
			follow()
		}
	}
}

// readProgress tells progress the run's events from the seen-th and says
// how many it told. A query that fails (the run has not started on a
// worker yet) tells none.
func readProgress(ctx context.Context, c client.Client, run client.WorkflowRun, seen int, progress func(runner.Event)) int {
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	v, err := c.QueryWorkflow(qctx, run.GetID(), run.GetRunID(), queryProgress, seen)
	if err != nil {
		return 0
	}
	var evs []runner.Event
	if err := v.Get(&evs); err != nil {
		return 0
	}
	for _, ev := range evs {
		progress(ev)
	}
	return len(evs)
}
