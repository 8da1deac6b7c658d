package durable

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
)

// Activity names, as the workflow schedules them.
const (
	activityFetch    = "nous.Fetch"
	activityInvoke   = "nous.Invoke"
	activityGround   = "nous.Ground"
	activityDescribe = "nous.Describe"
)

// maxPayload bounds what a Fetch returns, encoded and compressed:
// Temporal refuses a payload over 2 MB. maxCollect bounds the records a
// Fetch holds before it encodes them, about their size in JSON.
const (
	maxPayload = 1900 << 10
	maxCollect = 32 << 20
)

// heartbeatEvery is how often a running activity tells the service it is
// alive, so a worker that died is noticed within heartbeatTimeout and its
// call retried on another.
const (
	heartbeatEvery   = 2 * time.Second
	heartbeatTimeout = 10 * time.Second
)

// Activities are the plugin calls of a durable run, hosted by a worker
// with warm plugin processes. Their results and errors are stored in the
// run's history, so secrets are masked before they leave.
type Activities struct {
	Plugins  ask.Plugins
	Redactor *redact.Redactor
}

// Fetch asks a source for records.
func (a *Activities) Fetch(ctx context.Context, in FetchInput) (*FetchOutput, error) {
	defer beat(ctx)()
	out := &FetchOutput{Records: records{}}
	size := 0
	err := a.Plugins.Fetch(ctx, in.Source, in.Request, func(r sdk.Record) error {
		r = a.Redactor.Record(r)
		if size += approxSize(r); size > maxCollect {
			return errPayload
		}
		out.Records = append(out.Records, r)
		return nil
	})
	switch {
	case errors.Is(err, errPayload):
		out.Cut = payloadCut(len(out.Records))
	case err != nil && len(out.Records) > 0: // cut short: what arrived counts
		f := a.failure(err)
		out.Cut = &f
	case err != nil:
		return nil, a.activityError(err)
	}
	if err := fit(out); err != nil {
		return nil, a.activityError(err)
	}
	return out, nil
}

// fit cuts out's records until it fits in a payload, encoded as the
// worker encodes it, and says so in out.Cut.
func fit(out *FetchOutput) error {
	for range 8 {
		p, err := dataConverter.ToPayload(out)
		if err != nil {
			return fmt.Errorf("encoding the records: %w", err)
		}
		size := proto.Size(p)
		if size <= maxPayload {
			return nil
		}
		keep := int(float64(len(out.Records)) * float64(maxPayload) / float64(size) * 0.95)
		out.Records, out.Cut = out.Records[:keep], payloadCut(keep)
	}
	return errors.New("the records do not fit in a Temporal payload")
}

// payloadCut says a Fetch's records were cut at n to fit in a payload.
func payloadCut(n int) *Failure {
	return &Failure{Kind: sdk.KindUnknown.String(), Message: fmt.Sprintf(
		"the answer was cut after %d records: a durable run carries at most %d KiB of compressed records per call (Temporal's payload limit)", n, maxPayload>>10)}
}

// errPayload stops a stream that would not fit in a payload.
var errPayload = errors.New("payload limit")

// approxSize is about what r takes in a payload, bounding it from above
// for the fixed parts.
func approxSize(r sdk.Record) int {
	n := 160 + len(r.ID) + len(r.Source) + len(r.Kind) + len(r.Title) + len(r.Body) + len(r.URL) + len(r.Author)
	for k, v := range r.Fields {
		n += len(k) + 48
		switch x := v.(type) {
		case string:
			n += len(x)
		case []string:
			for _, s := range x {
				n += len(s) + 3
			}
		}
	}
	return n
}

// Invoke asks an agent.
func (a *Activities) Invoke(ctx context.Context, in InvokeInput) (*sdk.InvokeResponse, error) {
	defer beat(ctx)()
	resp, err := a.Plugins.Invoke(ctx, in.Agent, in.Request.request())
	if err != nil {
		return nil, a.activityError(err)
	}
	return &resp, nil
}

// Ground asks a source which of a question's terms it knows (a local
// activity: no heartbeat).
func (a *Activities) Ground(ctx context.Context, in GroundInput) (*sdk.GroundResponse, error) {
	resp, err := a.Plugins.Ground(ctx, in.Source, in.Request)
	if err != nil {
		return nil, a.activityError(err)
	}
	return &resp, nil
}

// Describe asks a source what it serves (a local activity).
func (a *Activities) Describe(ctx context.Context, source string) (*sdk.SourceInfo, error) {
	info, err := a.Plugins.Describe(ctx, source)
	if err != nil {
		return nil, a.activityError(err)
	}
	return &info, nil
}

// beat heartbeats ctx's activity until the returned stop is called.
func beat(ctx context.Context) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

// failure is err as it crosses the history, secrets masked.
func (a *Activities) failure(err error) Failure {
	return Failure{Kind: sdk.KindOf(err).String(), Message: a.Redactor.Error(err).Error()}
}

// activityError is err as the activity's failure: its kind is the error
// type the retry policy reads, and the kinds that retrying cannot help
// are not retried.
func (a *Activities) activityError(err error) error {
	f := a.failure(err)
	return temporal.NewApplicationErrorWithOptions(f.Message, f.Kind, temporal.ApplicationErrorOptions{NonRetryable: final(sdk.KindOf(err))})
}

// finalKinds are the error kinds that fail again however often a call is
// retried: the configuration, the credentials, the request or the
// resource is wrong.
var finalKinds = []sdk.ErrorKind{sdk.KindBadConfig, sdk.KindUnauthorized, sdk.KindBadRequest, sdk.KindNotFound}

func final(kind sdk.ErrorKind) bool { return slices.Contains(finalKinds, kind) }

// retryPolicy retries a call but for the final kinds: five attempts, one
// second apart at first, doubling up to half a minute.
func retryPolicy() *temporal.RetryPolicy {
	names := make([]string, len(finalKinds))
	for i, k := range finalKinds {
		names[i] = k.String()
	}
	return &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 30 * time.Second, MaximumAttempts: 5,
		NonRetryableErrorTypes: names}
}
