package retry

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var now = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestDelay(t *testing.T) {
	p := Policy{Base: time.Second, Max: 8 * time.Second, Now: func() time.Time { return now }, Rand: func() float64 { return 0.5 }}
	tests := []struct {
		name  string
		h     http.Header
		retry int
		want  time.Duration
	}{
		{"retry-after seconds", header("Retry-After", "7"), 0, 7 * time.Second},
		{"retry-after http date", header("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat)), 0, 90 * time.Second},
		{"retry-after date in the past", header("Retry-After", now.Add(-time.Hour).Format(http.TimeFormat)), 0, 0},
		{"retry-after beats ratelimit-reset", header("Retry-After", "3", "RateLimit-Reset", strconv.FormatInt(now.Unix()+60, 10)), 0, 3 * time.Second},
		{"ratelimit-reset epoch", header("RateLimit-Reset", strconv.FormatInt(now.Unix()+42, 10)), 0, 42 * time.Second},
		{"garbage retry-after falls to ratelimit-reset", header("Retry-After", "soon", "RateLimit-Reset", strconv.FormatInt(now.Unix()+5, 10)), 0, 5 * time.Second},
		{"no headers: first backoff", nil, 0, 750 * time.Millisecond},
		{"no headers: third backoff", http.Header{}, 2, 3 * time.Second},
		{"no headers: capped at max", http.Header{}, 10, 6 * time.Second},
		{"no headers: huge retry count does not overflow", http.Header{}, 200, 6 * time.Second},
		{"negative retry-after ignored", header("Retry-After", "-4"), 1, 1500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, p.Delay(tt.h, tt.retry))
		})
	}
}

func TestBackoffJitterStaysInHalfToFull(t *testing.T) {
	for _, r := range []float64{0, 0.25, 0.999} {
		p := Policy{Base: time.Second, Max: time.Minute, Rand: func() float64 { return r }}
		d := p.Delay(nil, 3) // 8s step
		assert.GreaterOrEqual(t, d, 4*time.Second)
		assert.Less(t, d, 8*time.Second)
	}
}

// fakeClock advances when the policy sleeps, so waits are observable and instant.
type fakeClock struct {
	t     time.Time
	waits []time.Duration
}

func (c *fakeClock) policy(attempts int) Policy {
	return Policy{
		Attempts: attempts,
		Base:     100 * time.Millisecond,
		Max:      time.Second,
		Now:      func() time.Time { return c.t },
		Sleep: func(_ context.Context, d time.Duration) error {
			c.waits = append(c.waits, d)
			c.t = c.t.Add(d)
			return nil
		},
		Rand: func() float64 { return 0 },
	}
}

func TestDo(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name      string
		results   []error // what fn returns on each call; the last repeats
		attempts  int
		deadline  time.Duration // 0: no deadline
		wantCalls int
		wantWaits []time.Duration
		wantErr   func(t *testing.T, err error)
	}{
		{
			name:      "success first time",
			results:   []error{nil},
			wantCalls: 1,
		},
		{
			name:      "non-retryable error is returned at once",
			results:   []error{errBoom},
			wantCalls: 1,
			wantErr:   func(t *testing.T, err error) { assert.Same(t, errBoom, err) },
		},
		{
			name:      "honours retry-after then succeeds",
			results:   []error{After(errBoom, header("Retry-After", "2")), nil},
			wantCalls: 2,
			wantWaits: []time.Duration{2 * time.Second},
		},
		{
			name:      "exponential without headers",
			results:   []error{After(errBoom, nil), After(errBoom, nil), After(errBoom, nil), nil},
			wantCalls: 4,
			wantWaits: []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond},
		},
		{
			name:      "gives up after attempts",
			results:   []error{After(errBoom, nil)},
			attempts:  3,
			wantCalls: 3,
			wantWaits: []time.Duration{50 * time.Millisecond, 100 * time.Millisecond},
			wantErr: func(t *testing.T, err error) {
				var g *GiveUpError
				require.ErrorAs(t, err, &g)
				assert.Equal(t, 3, g.Attempts)
				assert.ErrorIs(t, err, errBoom)
			},
		},
		{
			name:      "refuses a wait past the deadline",
			results:   []error{After(errBoom, header("Retry-After", "30"))},
			deadline:  10 * time.Second,
			wantCalls: 1,
			wantErr: func(t *testing.T, err error) {
				var g *GiveUpError
				require.ErrorAs(t, err, &g)
				assert.Equal(t, 30*time.Second, g.Wait)
				assert.Contains(t, err.Error(), "deadline")
			},
		},
		{
			name:      "refuses a huge wait without a deadline",
			results:   []error{After(errBoom, header("Retry-After", "86400"))},
			wantCalls: 1,
			wantErr: func(t *testing.T, err error) {
				var g *GiveUpError
				require.ErrorAs(t, err, &g)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{t: now}
			ctx := context.Background()
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				// The fake clock starts at `now`; the deadline is real time, so
				// express it relative to the fake clock's origin.
				ctx, cancel = context.WithDeadline(ctx, now.Add(tt.deadline))
				defer cancel()
			}
			calls := 0
			err := clock.policy(tt.attempts).Do(ctx, func(context.Context) error {
				r := tt.results[min(calls, len(tt.results)-1)]
				calls++
				return r
			})
			assert.Equal(t, tt.wantCalls, calls)
			assert.Equal(t, tt.wantWaits, clock.waits)
			if tt.wantErr == nil {
				assert.NoError(t, err)
			} else {
				tt.wantErr(t, err)
			}
		})
	}
}

func TestDoStopsWhenContextEndsDuringWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err := Policy{Base: time.Hour, Max: time.Hour, MaxWait: 2 * time.Hour}.Do(ctx, func(context.Context) error {
		calls++
		cancel()
		return After(errors.New("503"), nil)
	})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, calls)
}

func TestShouldRetry(t *testing.T) {
	for status, want := range map[int]bool{200: false, 400: false, 401: false, 404: false, 429: true, 500: true, 501: false, 502: true, 503: true, 599: true} {
		assert.Equal(t, want, ShouldRetry(status), "status %d", status)
	}
}

func TestDoNotifiesBeforeEachWait(t *testing.T) {
	clock := &fakeClock{t: now}
	p := clock.policy(0)
	type note struct {
		attempt int
		wait    time.Duration
	}
	var notes []note
	p.Notify = func(attempt int, wait time.Duration, err error) {
		assert.EqualError(t, err, "429")
		notes = append(notes, note{attempt, wait})
	}
	calls := 0
	err := p.Do(context.Background(), func(context.Context) error {
		calls++
		if calls < 3 {
			return After(errors.New("429"), header("Retry-After", strconv.Itoa(calls)))
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []note{{1, time.Second}, {2, 2 * time.Second}}, notes)
}

func TestContextError(t *testing.T) {
	err := ContextError("github: repository o/r", context.DeadlineExceeded)
	assert.ErrorIs(t, err, sdk.ErrDeadline)
	assert.EqualError(t, err, "github: repository o/r: deadline exceeded")
	err = ContextError("youtrack", context.Canceled)
	assert.ErrorIs(t, err, context.Canceled)
	assert.EqualError(t, err, "youtrack: context canceled")
}
