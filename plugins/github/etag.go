package github

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Bounds of the ETag cache: GitHub pages of 100 items are 100-600 KiB.
const (
	maxCachedBody  = 4 << 20
	maxCachedBytes = 32 << 20
)

// etagCache answers a GET it has seen from the body it kept while GitHub's
// Cache-Control max-age says that body is fresh (60 s for most API
// answers: no request at all), and after that revalidates with
// If-None-Match, answering a 304 (which does not count against GitHub's
// rate limit) with the kept body, as a 200, so the client above never sees
// the difference. Entries are keyed by URL; the cache lives in one
// configured source, so one token ("private" answers are kept).
type etagCache struct {
	next http.RoundTripper
	now  func() time.Time

	mu      sync.Mutex
	entries map[string]*cached
	order   []string // oldest first, for eviction
	size    int
	hits    int // 304s answered with a kept body
	fresh   int // requests answered with a kept body, not sent
}

type cached struct {
	etag   string
	header http.Header // of the 200 that brought the body
	body   []byte
	fresh  time.Time // until when max-age lets it be used without asking
}

func newETagCache(next http.RoundTripper) *etagCache {
	return &etagCache{next: next, now: time.Now, entries: map[string]*cached{}}
}

func (c *etagCache) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		return c.next.RoundTrip(req)
	}
	key := req.URL.String()
	c.mu.Lock()
	entry := c.entries[key]
	if entry != nil && c.now().Before(entry.fresh) {
		c.fresh++
		c.mu.Unlock()
		return entry.response(req), nil
	}
	c.mu.Unlock()
	if entry != nil {
		req = req.Clone(req.Context())
		req.Header.Set("If-None-Match", entry.etag)
	}
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && entry != nil:
		_ = resp.Body.Close()
		c.mu.Lock()
		c.hits++
		entry.fresh = c.now().Add(maxAge(resp.Header))
		c.mu.Unlock()
		resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
		resp.Header.Set("Content-Type", entry.header.Get("Content-Type"))
		if resp.Header.Get("Link") == "" && entry.header.Get("Link") != "" {
			resp.Header.Set("Link", entry.header.Get("Link"))
		}
		resp.ContentLength = int64(len(entry.body))
		resp.Body = io.NopCloser(bytes.NewReader(entry.body))
	case resp.StatusCode == http.StatusOK && resp.Header.Get("ETag") != "":
		body, err := io.ReadAll(resp.Body) // bounded by the hardened client
		_ = resp.Body.Close()
		if err != nil {
			return nil, err
		}
		c.store(key, &cached{etag: resp.Header.Get("ETag"), header: resp.Header.Clone(), body: body, fresh: c.now().Add(maxAge(resp.Header))})
		resp.Body = io.NopCloser(bytes.NewReader(body))
	}
	return resp, nil
}

// store keeps e under key, evicting the oldest entries past the byte budget.
func (c *etagCache) store(key string, e *cached) {
	if len(e.body) > maxCachedBody {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[key]; ok {
		c.size -= len(old.body)
	} else {
		c.order = append(c.order, key)
	}
	c.entries[key] = e
	c.size += len(e.body)
	for c.size > maxCachedBytes && len(c.order) > 0 {
		oldest := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.entries[oldest].body)
		delete(c.entries, oldest)
	}
}

// revalidated is the number of requests answered from the cache after a 304.
func (c *etagCache) revalidated() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// response answers req from the entry, as the 200 that brought it did.
func (e *cached) response(req *http.Request) *http.Response {
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: e.header.Clone(), Body: io.NopCloser(bytes.NewReader(e.body)), ContentLength: int64(len(e.body)), Request: req,
	}
}

// maxAge is how long Cache-Control lets a response be used without asking
// again: its max-age, or 0 when it says no-cache or no-store or gives none.
func maxAge(h http.Header) time.Duration {
	var age time.Duration
	for _, directive := range strings.Split(strings.ToLower(h.Get("Cache-Control")), ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(directive), "=")
		switch name {
		case "no-cache", "no-store":
			return 0
		case "max-age":
			if n, err := strconv.Atoi(strings.Trim(value, `"`)); err == nil && n > 0 {
				age = time.Duration(min(n, 3600)) * time.Second // an hour at most, whatever a proxy says
			}
		}
	}
	return age
}
