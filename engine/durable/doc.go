// Package durable runs nous's answers as Temporal workflows: the same
// planner and executor that `nous ask` drives in memory run as workflow
// code, and every plugin call (Fetch, Invoke, Ground, Describe) is an
// activity hosted by `nous worker`. Nothing in the planner or the
// in-memory executor imports it; without --temporal it is never used.
package durable

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
)

// Options name the Temporal service a run goes to.
type Options struct {
	HostPort  string // the frontend's host:port
	Namespace string // "default" when empty
	TaskQueue string // "nous" when empty
	// RunTimeout bounds a run from its start to its end, the wait for a
	// worker included; none when zero.
	RunTimeout time.Duration
	// Logger receives the SDK's logs; none when nil.
	Logger *slog.Logger
}

// DefaultTaskQueue is the task queue when Options name none.
const DefaultTaskQueue = "nous"

func (o Options) taskQueue() string { return cmp.Or(o.TaskQueue, DefaultTaskQueue) }

// dataConverter encodes every payload as JSON compressed with zlib: runs
// carry records, and Temporal bounds a payload at 2 MB.
var dataConverter = converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), converter.NewZlibCodec(converter.ZlibCodecOptions{}))

// Dial connects to the Temporal service o names, within ctx. conn
// carries how (TLS, credentials, headers: Temporal's own client
// configuration, see go.temporal.io/sdk/contrib/envconfig); o's address
// and namespace, the payload codec and the logger are nous's.
func Dial(ctx context.Context, o Options, conn client.Options) (client.Client, error) {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	conn.HostPort, conn.Namespace = o.HostPort, o.Namespace
	conn.DataConverter, conn.Logger = dataConverter, log.NewStructuredLogger(logger)
	return client.DialContext(ctx, conn)
}
