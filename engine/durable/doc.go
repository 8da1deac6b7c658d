// Package durable runs nous's answers as Temporal workflows: the same
// planner and executor that `nous ask` drives in memory run as workflow
// code, and every plugin call (Fetch, Invoke, Ground, Describe) is an
// activity hosted by `nous worker`. Nothing in the planner or the
// in-memory executor imports it; without --temporal it is never used.
package durable

import "go.temporal.io/sdk/client"

// Options name the Temporal service a run goes to.
type Options struct {
	HostPort  string // the frontend's host:port
	Namespace string // "default" when empty
	TaskQueue string // "nous" when empty
}

// dialOptions are the client options for o.
func (o Options) dialOptions() client.Options {
	return client.Options{HostPort: o.HostPort, Namespace: o.Namespace}
}
