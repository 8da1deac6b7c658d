package main

import "github.com/spf13/pflag"

// defaultTaskQueue is the task queue durable runs go to when none is named
// (durable.DefaultTaskQueue).
const defaultTaskQueue = "nous"

// temporalFlags send runs to a Temporal service instead of running them
// in this process.
type temporalFlags struct {
	hostPort, namespace, taskQueue string
	flags                          *pflag.FlagSet
}

func (t *temporalFlags) add(f *pflag.FlagSet, what string) {
	t.flags = f
	f.StringVar(&t.hostPort, "temporal", "", what+" on the Temporal service at HOST:PORT (see nous worker)")
	f.StringVar(&t.namespace, "namespace", "default", "the Temporal namespace, with --temporal (default: $TEMPORAL_NAMESPACE or the profile's, else default)")
	f.StringVar(&t.taskQueue, "task-queue", defaultTaskQueue, "the Temporal task queue, with --temporal")
}
