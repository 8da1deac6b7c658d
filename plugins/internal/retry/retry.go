// Package retry is the backoff the remote source plugins share: it honours
// Retry-After (seconds or an HTTP date), then RateLimit-Reset (epoch
// seconds), then falls back to exponential backoff with jitter, and never
// waits past the caller's deadline.
package retry

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// Policy decides how often and how long to wait between attempts. The zero
// value is usable: it gets the defaults documented on each field.
type Policy struct {
	// Attempts is the total number of tries, first included (default 6).
	Attempts int
	// Base is the first exponential backoff step (default 500ms).
	Base time.Duration
	// Max caps one exponential step (default 30s).
	Max time.Duration
	// MaxWait caps any single wait, including one the server asks for, when
	// the context has no deadline (default 2m). With a deadline, the deadline
	// is the bound.
	MaxWait time.Duration

	// Now, Sleep and Rand are injectable for tests; nil means the real clock,
	// a context-aware timer and math/rand/v2.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	Rand  func() float64

	// Notify, when set, hears about each wait before it starts, so callers
	// can log rate limiting without the policy knowing about loggers.
	Notify func(attempt int, wait time.Duration, err error)
}

// Retryable marks an error as worth another attempt; Header carries the
// response headers that may say how long to wait.
type Retryable struct {
	Err    error
	Header http.Header
}

func (r *Retryable) Error() string { return r.Err.Error() }

func (r *Retryable) Unwrap() error { return r.Err }

// After wraps err as retryable with the response headers h (which may be nil).
func After(err error, h http.Header) error {
	return &Retryable{Err: err, Header: h}
}

// ShouldRetry reports whether an HTTP status is worth retrying: 429 and the
// 5xx range except 501 Not Implemented.
func ShouldRetry(status int) bool {
	return status == http.StatusTooManyRequests ||
		(status >= 500 && status <= 599 && status != http.StatusNotImplemented)
}

// GiveUpError is returned when the policy stops retrying before fn
// succeeded: out of attempts, or the next wait would outlast the deadline.
type GiveUpError struct {
	Attempts int
	Wait     time.Duration // the wait that was refused, 0 when out of attempts
	Err      error         // the last attempt's error (the Retryable's cause)
}

func (e *GiveUpError) Error() string {
	if e.Wait > 0 {
		return fmt.Sprintf("gave up after %d attempt(s): waiting %s would pass the deadline: %v", e.Attempts, e.Wait.Round(time.Millisecond), e.Err)
	}
	return fmt.Sprintf("gave up after %d attempt(s): %v", e.Attempts, e.Err)
}

func (e *GiveUpError) Unwrap() error { return e.Err }

// Do calls fn until it returns nil or an error that is not a *Retryable,
// waiting between attempts as the policy says. It returns fn's last error:
// a non-retryable one as is, a retryable one wrapped in *GiveUpError.
func (p Policy) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	attempts := p.Attempts
	if attempts <= 0 {
		attempts = 6
	}
	for attempt := 1; ; attempt++ {
		err := fn(ctx)
		var r *Retryable
		if err == nil || !errors.As(err, &r) {
			return err
		}
		if attempt >= attempts {
			return &GiveUpError{Attempts: attempt, Err: r.Err}
		}
		wait := p.Delay(r.Header, attempt-1)
		if !p.fits(ctx, wait) {
			return &GiveUpError{Attempts: attempt, Wait: wait, Err: r.Err}
		}
		if p.Notify != nil {
			p.Notify(attempt, wait, r.Err)
		}
		if err := p.sleep(ctx, wait); err != nil {
			return fmt.Errorf("waiting to retry: %w (last error: %v)", err, r.Err)
		}
	}
}

// Delay is the wait before retry number retry (0 for the first retry):
// Retry-After, else RateLimit-Reset, else exponential backoff with jitter.
func (p Policy) Delay(h http.Header, retry int) time.Duration {
	now := p.now()
	if d, ok := RetryAfter(h, now); ok {
		return d
	}
	if d, ok := rateLimitReset(h, now); ok {
		return d
	}
	return p.backoff(retry)
}

// RetryAfter parses a Retry-After header given in seconds or as an HTTP date.
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// rateLimitReset parses GitLab's RateLimit-Reset (epoch seconds).
func rateLimitReset(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("RateLimit-Reset"))
	if v == "" {
		return 0, false
	}
	epoch, err := strconv.ParseInt(v, 10, 64)
	if err != nil || epoch <= 0 {
		return 0, false
	}
	return max(time.Unix(epoch, 0).Sub(now), 0), true
}

// backoff is Base·2^retry capped at Max, with "equal jitter": half fixed,
// half random, so concurrent clients spread out but never retry at once.
func (p Policy) backoff(retry int) time.Duration {
	base, ceiling := p.Base, p.Max
	if base <= 0 {
		base = 500 * time.Millisecond
	}
	if ceiling <= 0 {
		ceiling = 30 * time.Second
	}
	d := ceiling
	if retry < 30 && base<<retry > 0 && base<<retry < ceiling {
		d = base << retry
	}
	r := p.Rand
	if r == nil {
		r = rand.Float64
	}
	return d/2 + time.Duration(r()*float64(d/2))
}

// fits reports whether waiting d still leaves the context alive.
func (p Policy) fits(ctx context.Context, d time.Duration) bool {
	if deadline, ok := ctx.Deadline(); ok {
		return p.now().Add(d).Before(deadline)
	}
	maxWait := p.MaxWait
	if maxWait <= 0 {
		maxWait = 2 * time.Minute
	}
	return d <= maxWait
}

func (p Policy) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p Policy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	return Sleep(ctx, d)
}

// Sleep waits d or until ctx ends, whichever is first; ctx's error says
// why it stopped early.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ContextError is the error of a call whose context ended, after where
// ("github: repository o/r"): a passed deadline is sdk.KindDeadline, a
// cancellation wraps err.
func ContextError(where string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return sdk.Errorf(sdk.KindDeadline, "%s: deadline exceeded", where)
	}
	return fmt.Errorf("%s: %w", where, err)
}
