// Package fakes holds local HTTP fakes of the remote services the source
// plugins talk to (GitHub REST, GitLab REST v4, YouTrack REST), written from
// the public API documentation: the same field names, pagination headers,
// error bodies and rate-limit answers, over generated, deterministic data.
// The plugins' tests use them, and so do nous's end-to-end tests and anyone
// testing rules against a hosted source without reaching it.
package fakes

import (
	"net/http"
	"strings"
	"sync"
)

// Fault is a scripted failure: the next Times requests (default 1) whose
// raw request URI (escaped path and query) contains PathContains get this
// answer instead of the real one.
type Fault struct {
	PathContains string
	Times        int
	Status       int
	Header       http.Header
	// Body is sent as is, except that "{TOKEN}" is replaced by the token the
	// request carried: a server that echoes credentials in its errors.
	Body string
}

// faults is a queue of scripted failures, safe for concurrent requests.
type faults struct {
	mu    sync.Mutex
	queue []Fault
}

func (f *faults) add(ft Fault) {
	if ft.Times <= 0 {
		ft.Times = 1
	}
	f.mu.Lock()
	f.queue = append(f.queue, ft)
	f.mu.Unlock()
}

// take returns the first fault matching uri and uses up one of its times.
func (f *faults) take(uri string) (Fault, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.queue {
		if strings.Contains(uri, f.queue[i].PathContains) {
			ft := f.queue[i]
			f.queue[i].Times--
			if f.queue[i].Times == 0 {
				f.queue = append(f.queue[:i], f.queue[i+1:]...)
			}
			return ft, true
		}
	}
	return Fault{}, false
}

// serve writes the fault, echoing token into the body where asked.
func (ft Fault) serve(w http.ResponseWriter, token string) {
	for k, vs := range ft.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(ft.Status)
	_, _ = w.Write([]byte(strings.ReplaceAll(ft.Body, "{TOKEN}", token)))
}

// requestLog records the raw request URIs a fake saw, for assertions on
// what the client sent (encoded paths, query parameters).
type requestLog struct {
	mu   sync.Mutex
	uris []string
}

func (l *requestLog) add(r *http.Request) {
	l.mu.Lock()
	l.uris = append(l.uris, r.URL.RequestURI())
	l.mu.Unlock()
}

func (l *requestLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.uris...)
}
