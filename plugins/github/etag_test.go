package github

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

// TestETagRevalidation: the same fetch twice sends If-None-Match, gets
// 304s that do not count against the limit, and yields the same records.
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
