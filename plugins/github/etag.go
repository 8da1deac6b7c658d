package github

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// Bounds of the ETag cache: GitHub pages of 100 items are 100-600 KiB.
const (
	maxCachedBody  = 4 << 20
	maxCachedBytes = 32 << 20
)

// etagCache revalidates GETs it has seen with If-None-Match and answers a
// 304 (which does not count against GitHub's rate limit) with the body it
// kept, as a 200, so the client above never sees the difference. Entries
// are keyed by URL; the cache lives in one configured source, so one token.
type etagCache struct {
	next http.RoundTripper

	mu      sync.Mutex
	entries map[string]*cached
	order   []string // oldest first, for eviction
	size    int
	hits    int
}

type cached struct {
	etag, contentType, link string
	body                    []byte
}

func newETagCache(next http.RoundTripper) *etagCache {
	return &etagCache{next: next, entries: map[string]*cached{}}
}

func (c *etagCache) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		return c.next.RoundTrip(req)
	}
	key := req.URL.String()
	c.mu.Lock()
	entry := c.entries[key]
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
		c.mu.Unlock()
		resp.StatusCode, resp.Status = http.StatusOK, "200 OK"
		resp.Header.Set("Content-Type", entry.contentType)
		if resp.Header.Get("Link") == "" && entry.link != "" {
			resp.Header.Set("Link", entry.link)
		}
		resp.ContentLength = int64(len(entry.body))
		resp.Body = io.NopCloser(bytes.NewReader(entry.body))
	case resp.StatusCode == http.StatusOK && resp.Header.Get("ETag") != "":
		body, err := io.ReadAll(resp.Body) // bounded by the hardened client
		_ = resp.Body.Close()
		if err != nil {
			return nil, err
		}
		c.store(key, &cached{etag: resp.Header.Get("ETag"), contentType: resp.Header.Get("Content-Type"), link: resp.Header.Get("Link"), body: body})
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
