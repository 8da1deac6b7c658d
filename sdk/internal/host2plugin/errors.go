package host2plugin

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"google.golang.org/grpc/codes"
)

// ErrNotServed is the cause of an error from a call to a service the plugin
// does not serve (an Agent call to a source-only plugin). Match it with
// errors.Is.
var ErrNotServed = errors.New("the plugin does not serve this service")

// statusOf turns what a plugin implementation returned into the gRPC status
// the host reads. Context errors mean the call ran out of time or was
// cancelled: sdk.KindDeadline.
func statusOf(err error) error {
	kind := sdk.KindOf(err)
	if kind == sdk.KindUnknown && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
		kind = sdk.KindDeadline
	}
	return wire.StatusError(int(kind), err.Error())
}

// callError turns a failed call into an *Error on the host side. The
// plugin's own kind and message come through unchanged; the host's context
// ending wins over whatever the transport said, because that is the cause.
func callError(ctx context.Context, op string, err error) error {
	if ctxErr := hostContextErr(ctx); ctxErr != nil {
		return &sdk.Error{Kind: sdk.KindDeadline, Message: fmt.Sprintf("%s: %v", op, ctxErr), Err: ctxErr}
	}
	f := wire.FailureOf(err)
	switch {
	case f.Detailed:
		return &sdk.Error{Kind: sdk.ErrorKind(f.Kind), Message: f.Message}
	case f.Code == codes.Unimplemented:
		return &sdk.Error{Kind: sdk.KindUnknown, Message: fmt.Sprintf("%s: %v", op, ErrNotServed), Err: ErrNotServed}
	default:
		return &sdk.Error{Kind: sdk.ErrorKind(f.Kind), Message: fmt.Sprintf("%s: %s", op, f.Message), Err: err}
	}
}

// hostContextErr is ctx's error, or DeadlineExceeded once its deadline has
// passed: the plugin sees the same deadline and may answer before the
// host's own timer has marked ctx done.
func hostContextErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

// recoverCall turns a panic in a plugin implementation into a failed call
// with a clear message, so one bad record does not take the plugin down;
// the stack goes to the plugin's log.
func recoverCall(logger hclog.Logger, method string, err *error) {
	if r := recover(); r != nil {
		*err = statusOf(panicError(logger, method, r))
	}
}

// guard runs fn, turning a panic into an error.
func guard(logger hclog.Logger, method string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(logger, method, r)
		}
	}()
	return fn()
}

func panicError(logger hclog.Logger, method string, r any) error {
	logger.Error("plugin panicked", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	return &sdk.Error{Kind: sdk.KindUnknown, Message: fmt.Sprintf("plugin panicked in %s: %v", method, r)}
}
