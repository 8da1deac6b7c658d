package github

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

// stale moves the harness's cache past every max-age, as time passing would.
func stale(h *harness) {
	h.source.cache.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
}

// TestFreshAnswersAreNotAskedAgain: within GitHub's max-age (60 s) the
// same fetch sends no request at all.
func TestFreshAnswersAreNotAskedAgain(t *testing.T) {
	h := newHarness(t, nil)
	req := sdk.FetchRequest{Kind: sdk.KindPullRequest}
	first, err := h.fetch(t, req)
	require.NoError(t, err)
	pages := len(h.fake.Requests())
	require.Greater(t, pages, 1, "several pages")

	second, err := h.fetch(t, req)
	require.NoError(t, err)
	assert.Equal(t, first, second, "the same records from the kept bodies")
	assert.Len(t, h.fake.Requests(), pages, "no request while the answers are fresh")
	assert.Equal(t, pages, h.source.cache.fresh)

	stale(h)
	third, err := h.fetch(t, req)
	require.NoError(t, err)
	assert.Equal(t, first, third)
	assert.Len(t, h.fake.Requests(), 2*pages, "once stale, every page is asked again")
	assert.Equal(t, pages, h.source.cache.revalidated(), "and answered 304")
}

func TestMaxAge(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   time.Duration
	}{
		{"private, max-age=60, s-maxage=60", time.Minute},
		{"public, max-age=60, s-maxage=60", time.Minute},
		{`max-age="30"`, 30 * time.Second},
		{"max-age=86400", time.Hour},
		{"no-cache", 0},
		{"private, max-age=60, no-store", 0},
		{"max-age=-5", 0},
		{"max-age=soon", 0},
		{"", 0},
	} {
		t.Run(tt.header, func(t *testing.T) {
			assert.Equal(t, tt.want, maxAge(http.Header{"Cache-Control": {tt.header}}))
		})
	}
}

// TestETagRevalidation: the same fetch twice, once stale, sends
// If-None-Match, gets 304s that do not count against the limit, and
// yields the same records.
func TestETagRevalidation(t *testing.T) {
	for _, kind := range []string{sdk.KindIssue, sdk.KindPullRequest} {
		t.Run(kind, func(t *testing.T) {
			h := newHarness(t, nil)
			req := sdk.FetchRequest{Kind: kind}
			first, err := h.fetch(t, req)
			require.NoError(t, err)
			pages := len(h.fake.Requests())
			require.Greater(t, pages, 1, "several pages")
			used := h.fake.Used(true)
			assert.Equal(t, pages, used)

			stale(h)
			second, err := h.fetch(t, req)
			require.NoError(t, err)
			assert.Equal(t, first, second, "the same records from the cached bodies")
			assert.Equal(t, used, h.fake.Used(true), "304s do not count against the limit")
			assert.Equal(t, pages, h.source.cache.revalidated(), "every page revalidated")
			assert.Len(t, h.fake.Requests(), 2*pages, "Link pagination still walked from the cached pages")
		})
	}
}

// TestETagRevalidationWithoutAToken: GitHub counts an anonymous 304, so
// the records come from the cache but the limit still goes down.
func TestETagRevalidationWithoutAToken(t *testing.T) {
	h := newHarness(t, map[string]any{"token": ""})
	req := sdk.FetchRequest{Kind: sdk.KindPullRequest}
	first, err := h.fetch(t, req)
	require.NoError(t, err)
	stale(h)
	second, err := h.fetch(t, req)
	require.NoError(t, err)
	assert.Equal(t, first, second)
	assert.Equal(t, len(h.fake.Requests()), h.fake.Used(false), "every anonymous request counted")
	assert.Equal(t, len(h.fake.Requests())/2, h.source.cache.revalidated())
}

// TestETagChangedContentIsRefetched: a page whose content changed gets a
// new ETag, so the 200 and its new body replace the cached one.
func TestETagChangedContentIsRefetched(t *testing.T) {
	h := newHarness(t, nil)
	req := sdk.FetchRequest{Kind: sdk.KindIssue, Limit: 5}
	_, err := h.fetch(t, req)
	require.NoError(t, err)
	pages := len(h.fake.Requests())
	h.fake.Repo.Issues[0].Title = "renamed"
	stale(h)
	got, err := h.fetch(t, req)
	require.NoError(t, err)
	assert.Equal(t, "renamed", got[0].Title)
	assert.Equal(t, pages-1, h.source.cache.revalidated(), "all pages but the changed first one")
}

func TestETagCacheIsBounded(t *testing.T) {
	c := newETagCache(nil)
	body := make([]byte, maxCachedBody)
	for i := range 3 * maxCachedBytes / maxCachedBody {
		c.store("k"+itoa(i), &cached{etag: "x", body: body})
	}
	assert.LessOrEqual(t, c.size, maxCachedBytes)
	assert.Len(t, c.entries, maxCachedBytes/maxCachedBody)
	assert.NotContains(t, c.entries, "k0", "the oldest go first")
	c.store("huge", &cached{etag: "x", body: make([]byte, maxCachedBody+1)})
	assert.NotContains(t, c.entries, "huge", "a body over the entry bound is not kept")
}
