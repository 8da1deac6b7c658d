package fakes

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// The hostile servers below misbehave the way a compromised or broken
// host (or one a redirect names) can: they record what the client sent,
// redirect elsewhere, or send a body that does not end.

// Recorder is a handler that keeps the headers of every request it gets,
// then hands the request to Next (nil: 200 with an empty JSON list).
type Recorder struct {
	Next http.Handler

	mu      sync.Mutex
	headers []http.Header
}

// ServeHTTP records r's headers and serves it.
func (rec *Recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec.mu.Lock()
	rec.headers = append(rec.headers, r.Header.Clone())
	rec.mu.Unlock()
	if rec.Next != nil {
		rec.Next.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, "[]")
}

// Headers returns the headers of the requests seen so far, in order.
func (rec *Recorder) Headers() []http.Header {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]http.Header(nil), rec.headers...)
}

// Redirect answers every request with status and a Location of target
// followed by the request's own path and query, as a moved instance does.
func Redirect(status int, target string) http.Handler {
	target = strings.TrimRight(target, "/")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.RequestURI(), status)
	})
}

// Endless answers 200 with Prefix and then zeroes until the client stops
// reading or Max bytes are written (0: no end). A JSON Prefix such as
// `[{"title":"` makes a decoder buffer the zeroes as one string.
type Endless struct {
	Prefix string
	Max    int64

	written  atomic.Int64
	requests atomic.Int64
}

// ServeHTTP streams the endless body.
func (e *Endless) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.requests.Add(1)
	w.Header().Set("Content-Type", "application/json")
	n, _ := io.WriteString(w, e.Prefix)
	e.written.Add(int64(n))
	chunk := make([]byte, 32<<10)
	for i := range chunk {
		chunk[i] = '0'
	}
	for r.Context().Err() == nil && (e.Max <= 0 || e.written.Load() < e.Max) {
		n, err := w.Write(chunk)
		e.written.Add(int64(n))
		if err != nil {
			return
		}
	}
}

// Written is the number of body bytes the server got out so far.
func (e *Endless) Written() int64 { return e.written.Load() }

// Requests is the number of requests served.
func (e *Endless) Requests() int64 { return e.requests.Load() }
