package durable

import (
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// workflowTaskTimeout bounds one workflow task: planning, the engine's
// own work between plugin calls, and rendering the report, which for a
// long history is more than Temporal's default of a second.
const workflowTaskTimeout = 30 * time.Second

// NewWorker returns a worker that hosts w and acts on o's task queue;
// Run or Start it.
func NewWorker(c client.Client, o Options, w *Workflow, acts *Activities) worker.Worker {
	wk := worker.New(c, o.taskQueue(), workerOptions())
	register(wk, w)
	wk.RegisterActivityWithOptions(acts.Fetch, activity.RegisterOptions{Name: activityFetch})
	wk.RegisterActivityWithOptions(acts.Invoke, activity.RegisterOptions{Name: activityInvoke})
	wk.RegisterActivityWithOptions(acts.Ground, activity.RegisterOptions{Name: activityGround})
	wk.RegisterActivityWithOptions(acts.Describe, activity.RegisterOptions{Name: activityDescribe})
	return wk
}

// register registers w's workflow under its name.
func register(r worker.WorkflowRegistry, w *Workflow) {
	r.RegisterWorkflowWithOptions(w.Answer, workflow.RegisterOptions{Name: WorkflowName})
}

// workerOptions are the options every nous worker runs with.
func workerOptions() worker.Options {
	return worker.Options{DeadlockDetectionTimeout: workflowTaskTimeout}
}
