package httpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// guard is the RoundTripper that times the response headers and every
// body read, and bounds the body. It works over any transport (HTTP/1 or
// 2, a test's), because it cancels the request's own context.
type guard struct {
	next http.RoundTripper
	opts Options
}

// TimeoutError is a phase of a request that outlived its bound.
type TimeoutError struct {
	Host  string
	Phase string // "response headers" or "response body"
	After time.Duration
}

func (e *TimeoutError) Error() string {
	if e.Phase == phaseBody {
		return fmt.Sprintf("%s sent no data for %s while sending the response body (idle timeout)", e.Host, e.After)
	}
	return fmt.Sprintf("%s sent no response headers within %s (response header timeout)", e.Host, e.After)
}

// Timeout reports true, as net.Error does for a timeout.
func (e *TimeoutError) Timeout() bool { return true }

const (
	phaseHeaders = "response headers"
	phaseBody    = "response body"
)

func (g *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	host := req.URL.Host
	headers := time.AfterFunc(g.opts.ResponseHeader, func() {
		cancel(&TimeoutError{Host: host, Phase: phaseHeaders, After: g.opts.ResponseHeader})
	})
	resp, err := g.next.RoundTrip(req.WithContext(ctx))
	if !headers.Stop() && err == nil { // the headers came as the timer fired
		_ = resp.Body.Close()
		err = context.Cause(ctx)
	}
	if err != nil {
		cause := context.Cause(ctx)
		cancel(nil)
		var te *TimeoutError
		if errors.As(cause, &te) {
			return nil, te
		}
		return nil, err
	}
	resp.Body = &body{
		rc:     resp.Body,
		ctx:    ctx,
		cancel: cancel,
		host:   host,
		idle:   g.opts.Idle,
		left:   g.opts.MaxBody,
		limit:  g.opts.MaxBody,
		key:    g.opts.MaxBodyKey,
	}
	return resp, nil
}

// body bounds a response body: at most limit bytes, and no read waiting
// longer than idle for data. Closing it releases the request's context.
type body struct {
	rc     io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	host   string
	idle   time.Duration
	left   int64
	limit  int64
	key    string

	mu    sync.Mutex // Read and Close may race (a transport closing on cancel)
	timer *time.Timer
}

func (b *body) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return b.overLimit()
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	b.arm()
	n, err := b.rc.Read(p)
	b.disarm()
	b.left -= int64(n)
	if err != nil && err != io.EOF {
		var te *TimeoutError
		if errors.As(context.Cause(b.ctx), &te) {
			return n, te
		}
	}
	return n, err
}

// overLimit is called once limit bytes are read: one more byte means the
// body is too large; EOF means it was exactly the limit.
func (b *body) overLimit() (int, error) {
	var one [1]byte
	b.arm()
	n, err := b.rc.Read(one[:])
	b.disarm()
	if n > 0 {
		return 0, &TooLargeError{Host: b.host, Limit: b.limit, Key: b.key}
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return 0, err
}

func (b *body) arm() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timer == nil {
		b.timer = time.AfterFunc(b.idle, func() {
			b.cancel(&TimeoutError{Host: b.host, Phase: phaseBody, After: b.idle})
		})
		return
	}
	b.timer.Reset(b.idle)
}

func (b *body) disarm() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timer != nil {
		b.timer.Stop()
	}
}

func (b *body) Close() error {
	b.disarm()
	err := b.rc.Close()
	b.cancel(nil)
	return err
}
