package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/nous-dev/nous/plugins/internal/retry"
)

// withRetries calls fn until it succeeds, fails for good, runs out of
// retries, or the next wait would pass the context's deadline.
func (a *Agent) withRetries(ctx context.Context, cfg Config, fn func(ctx context.Context) error) error {
	retries := cfg.MaxRetries
	policy := retry.Policy{Base: 500 * time.Millisecond, Max: 8 * time.Second, Now: a.now, Rand: a.rand}
	for n := 0; ; n++ {
		err := fn(ctx)
		var se *statusError
		var te *transportError
		var header http.Header
		switch {
		case err == nil:
			return nil
		case asStatus(err, &se) && se.retryable():
			header = se.header
		case errors.As(err, &te):
		default:
			return err
		}
		if n >= retries {
			return &exhaustedError{attempts: n + 1, err: err}
		}
		wait, ok := retryAfterMillis(header)
		if !ok {
			wait = policy.Delay(header, n)
		}
		if deadline, ok := ctx.Deadline(); ok && a.now().Add(wait).After(deadline) {
			return &exhaustedError{attempts: n + 1, err: err, refusedWait: wait}
		}
		a.log.WarnContext(ctx, "openai: retrying", "model", cfg.Model, "attempt", n+1, "wait", wait,
			"error", cfg.redactor().String(err.Error()))
		if err := a.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// exhaustedError is a retryable failure that was not retried further.
type exhaustedError struct {
	attempts    int
	refusedWait time.Duration // the wait that would have passed the deadline
	err         error
}

func (e *exhaustedError) Error() string {
	if e.refusedWait > 0 {
		return fmt.Sprintf("%v (after %d attempt(s); the next retry, in %s, would pass the deadline)", e.err, e.attempts, e.refusedWait.Round(time.Millisecond))
	}
	return fmt.Sprintf("%v (after %d attempt(s))", e.err, e.attempts)
}

func (e *exhaustedError) Unwrap() error { return e.err }

// retryAfterMillis reads OpenAI's retry-after-ms header.
func retryAfterMillis(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After-Ms"))
	if v == "" {
		return 0, false
	}
	ms, err := strconv.ParseFloat(v, 64)
	if err != nil || ms < 0 {
		return 0, false
	}
	return time.Duration(ms * float64(time.Millisecond)), true
}

func asStatus(err error, target **statusError) bool { return errors.As(err, target) }
