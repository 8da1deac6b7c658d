package github

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// searchHarness serves pulls pull requests (no issues), every fourth one
// labelled "auth".
func searchHarness(t *testing.T, pulls int, config map[string]any) *harness {
	h := newHarness(t, config)
	h.fake.Repo = fakes.GenerateGitHubRepo("octo-org", "octo-repo", 0, pulls)
	return h
}

func searches(h *harness) []string {
	var out []string
	for _, uri := range h.fake.Requests() {
		if strings.Contains(uri, "/search/issues?") {
			out = append(out, uri)
		}
	}
	return out
}

func TestSearchFollowsPagesUpToItsThousandResults(t *testing.T) {
	tests := []struct {
		name        string
		pulls       int
		limit       int
		wantRecords int
		wantPages   int
		wantWarning bool
	}{
		{"three pages", 1000, 0, 250, 3, false},
		{"past 1,000 results: the first 1,000 and a warning", 4800, 0, 1000, 10, true},
		{"a limit asks for no more than it needs", 4800, 30, 30, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := searchHarness(t, tt.pulls, nil)
			records, err := h.fetch(t, sdk.FetchRequest{Kind: "pr", Limit: tt.limit, Filters: map[string][]string{"labels": {"auth"}}})
			require.NoError(t, err)
			assert.Len(t, records, tt.wantRecords)
			for _, r := range records {
				assert.Contains(t, r.Fields["labels"], "auth")
			}
			pages := searches(h)
			require.Len(t, pages, tt.wantPages)
			for i, uri := range pages {
				assert.Contains(t, uri, "page="+itoa(i+1)+"&")
			}
			if tt.limit > 0 {
				assert.Contains(t, pages[0], "per_page="+itoa(tt.limit)+"&", "every search result counts")
			}
			if tt.wantWarning {
				assert.Contains(t, h.logs.String(), "search results are incomplete: the search API returns at most 1,000 results")
				assert.Contains(t, h.logs.String(), "total_count=1200")
			} else {
				assert.NotContains(t, h.logs.String(), "search results are incomplete")
			}
		})
	}
}

func TestSearchSaysWhenGitHubTimedOut(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.IncompleteResults = true
	records, err := h.fetch(t, sdk.FetchRequest{Kind: "pr", Filters: map[string][]string{"authors": {"monalisa"}}})
	require.NoError(t, err)
	assert.NotEmpty(t, records)
	assert.Contains(t, h.logs.String(), "incomplete_results=true")
}

// TestSearchRecordsMatchListedOnes: a pull request found by search is the
// record listing gives, less what the search API does not return (head,
// head SHA, merge commit).
func TestSearchRecordsMatchListedOnes(t *testing.T) {
	h := newHarness(t, nil)
	listed, err := h.fetch(t, sdk.FetchRequest{Kind: "pr"})
	require.NoError(t, err)
	found, err := h.fetch(t, sdk.FetchRequest{Kind: "pr", Filters: map[string][]string{"authors": {"monalisa"}, "ref": {"main"}}})
	require.NoError(t, err)
	require.NotEmpty(t, found)
	for _, f := range found {
		i := slices.IndexFunc(listed, func(r sdk.Record) bool { return r.ID == f.ID })
		require.GreaterOrEqual(t, i, 0, f.ID)
		want := listed[i]
		for _, k := range []string{"head", "sha", "merge_commit_sha"} {
			delete(want.Fields, k)
		}
		assert.Equal(t, want, f)
	}
}

func TestMergedWithinDatesSearchesTheMergeDate(t *testing.T) {
	since := time.Date(2024, 3, 20, 0, 0, 0, 0, time.UTC)
	until := time.Date(2024, 3, 27, 0, 0, 0, 0, time.UTC)
	var want []string
	for _, pr := range fixture.PullRequests {
		if pr.MergedAt != nil && !pr.MergedAt.Before(since) && !pr.MergedAt.After(until) {
			want = append(want, testRepo+"#"+itoa(pr.Number))
		}
	}
	require.NotEmpty(t, want)
	for _, filters := range []map[string][]string{
		{"date_field": {"merged"}},
		{"date_field": {"merged"}, "milestones": {"*"}, "statuses": {"merged"}}, // "*" is not searchable: listed
	} {
		h := newHarness(t, nil)
		records, err := h.fetch(t, sdk.FetchRequest{Kind: "pr", Since: since, Until: until, Filters: filters})
		require.NoError(t, err)
		var got []string
		for _, r := range records {
			got = append(got, r.ID)
			assert.True(t, r.Time.Equal(r.Fields["merged_at"].(time.Time)), "Time is the merge")
		}
		if filters["milestones"] == nil {
			assert.ElementsMatch(t, want, got)
			require.Len(t, searches(h), 1)
			assert.Equal(t, "repo:octo-org/octo-repo is:pr merged:2024-03-20T00:00:00Z..2024-03-27T00:00:00Z", queryOf(t, searches(h)[0]))
			continue
		}
		assert.Empty(t, searches(h))
		for _, id := range got {
			assert.Contains(t, want, id)
		}
		assert.NotEmpty(t, got)
	}
}

// TestSearchRateLimits: the search API's own per-minute window (30 with a
// token, 10 without) is waited for within the deadline, a secondary limit
// for its retry-after; past the deadline the error says which limit and
// when to retry.
func TestSearchRateLimits(t *testing.T) {
	req := sdk.FetchRequest{Kind: "pr", Filters: map[string][]string{"labels": {"auth"}}}

	t.Run("the minute's searches used up: wait for the reset", func(t *testing.T) {
		h := searchHarness(t, 1000, nil)
		h.fake.SearchLimit = 2
		h.fake.NewSearchWindow(time.Now().Add(20 * time.Second).Truncate(time.Second))
		policy := h.waits.Policy()
		sleep := policy.Sleep
		policy.Sleep = func(ctx context.Context, d time.Duration) error {
			h.fake.NewSearchWindow(time.Now().Add(time.Minute))
			return sleep(ctx, d)
		}
		h.source.deps.Policy = policy
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		records, err := sdktest.Collect(ctx, h.source, req)
		require.NoError(t, err)
		assert.Len(t, records, 250)
		waits := h.waits.Recorded()
		require.Len(t, waits, 1)
		assert.InDelta(t, 21*time.Second, waits[0], float64(2*time.Second), "until x-ratelimit-reset, plus a second")
		assert.Equal(t, 0, h.fake.Used(true), "searches do not count against the core limit")
	})

	t.Run("secondary limit: wait for retry-after", func(t *testing.T) {
		h := searchHarness(t, 1000, nil)
		h.fake.Fail(fakes.Fault{PathContains: "/search/issues", Status: 403, Header: hdr("Retry-After", "7"), Body: secondaryBody})
		records, err := h.fetch(t, req)
		require.NoError(t, err)
		assert.Len(t, records, 250)
		assert.Equal(t, []time.Duration{7 * time.Second}, h.waits.Recorded())
	})

	tests := []struct {
		name   string
		config map[string]any
		want   []string
	}{
		{"authenticated", nil, []string{"search rate limit exhausted (2 requests a minute)", "retry after "}},
		{"unauthenticated", map[string]any{"token": ""}, []string{"search rate limit exhausted (2 requests a minute, unauthenticated)",
			"or set GITHUB_TOKEN (or GH_TOKEN) for 30 searches a minute"}},
	}
	for _, tt := range tests {
		t.Run("past the deadline: "+tt.name, func(t *testing.T) {
			h := searchHarness(t, 1000, tt.config)
			h.fake.SearchLimit, h.fake.AnonymousSearchLimit = 2, 2
			h.fake.NewSearchWindow(time.Now().Add(50 * time.Second).Truncate(time.Second))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := sdktest.Collect(ctx, h.source, req)
			require.Error(t, err)
			assert.ErrorIs(t, err, sdk.ErrRateLimited)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Empty(t, h.waits.Recorded(), "a wait past the deadline is not started")
		})
	}
}

func TestSearchLimitsOfQueries(t *testing.T) {
	tests := []struct {
		q    string
		fits bool
		ops  int
	}{
		{`repo:o/r is:pr author:hubot label:"a OR b"`, true, 0},
		{`a OR b AND c NOT d OR e OR f`, true, 5},
		{`a OR b AND c NOT d OR e OR f AND g`, false, 6},
		{strings.Repeat("x", 256), true, 0},
		{strings.Repeat("x", 257), false, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.ops, searchOperators(tt.q), tt.q)
		assert.Equal(t, tt.fits, searchFits(tt.q), tt.q)
	}
	q := query{kind: sdk.KindPullRequest, authors: []string{"a", "b", "c", "d"}, assignees: []string{"e", "f", "g"}}
	_, ok := q.searches(scope{repo: testRepo, state: "all"})
	assert.False(t, ok, "12 searches for one scope are more than a third of a minute's")
}

// TestFakeSearchAnswersAsGitHubDocuments: 422 for what the search API
// refuses, the search resource in the rate-limit headers.
func TestFakeSearchAnswersAsGitHubDocuments(t *testing.T) {
	h := newHarness(t, nil)
	tests := []struct {
		q, page    string
		wantStatus int
		want       string
	}{
		{"repo:octo-org/octo-repo is:pr", "1", 200, `"total_count":120`},
		{"repo:octo-org/octo-repo is:pr", "11", 422, "Only the first 1000 search results are available"},
		{"repo:octo-org/octo-repo " + strings.Repeat("word ", 60), "1", 422, "The search is longer than 256 characters."},
		{"repo:octo-org/octo-repo a OR b OR c OR d OR e OR f OR g", "1", 422, "more than 5 AND / OR / NOT operators"},
		{"repo:octo-org/octo-repo stars:>5", "1", 422, "not supported by this fake"},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(http.MethodGet, h.server.URL+"/api/v3/search/issues?per_page=100&page="+tt.page+"&q="+url.QueryEscape(tt.q), nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		assert.Equal(t, tt.wantStatus, resp.StatusCode, tt.q)
		assert.Contains(t, string(body), tt.want)
		assert.Equal(t, "search", resp.Header.Get("X-RateLimit-Resource"))
		assert.Equal(t, "30", resp.Header.Get("X-RateLimit-Limit"))
	}
}

// FuzzSearches: whatever values a request carries, a search built from them
// keeps within the API's limits and holds only the qualifiers nous writes:
// a value never adds a qualifier or an operator of its own.
func FuzzSearches(f *testing.F) {
	f.Add("hubot", "bug", "v1.1", "none", "main")
	f.Add("a repo:x/y", `b" OR label:"c`, "*", "x AND y", "")
	f.Add("app/dependabot", "good first issue", "none", "dependabot[bot]", "release-1.0")
	f.Fuzz(func(t *testing.T, author, label, milestone, assignee, ref string) {
		q := query{kind: sdk.KindPullRequest, dateField: "updated", ref: ref,
			authors: []string{author}, labels: []string{label}, milestones: []string{milestone}, assignees: []string{assignee}}
		out, ok := q.searches(scope{repo: testRepo, state: "all"})
		if !ok {
			return
		}
		require.Len(t, out, 1)
		s := out[0]
		assert.True(t, searchFits(s), s)
		assert.Zero(t, searchOperators(s), s)
		allowed := []string{"repo:", "is:", "base:", "label:", "author:", "assignee:", "milestone:", "no:"}
		for _, tok := range tokens(s) {
			assert.True(t, slices.ContainsFunc(allowed, func(p string) bool { return strings.HasPrefix(tok, p) }), "%q in %q", tok, s)
		}
	})
}

// tokens splits a search at spaces outside double quotes.
func tokens(q string) []string {
	var out []string
	start, inQuote := 0, false
	for i := 0; i <= len(q); i++ {
		switch {
		case i < len(q) && q[i] == '"':
			inQuote = !inQuote
		case i == len(q) || (q[i] == ' ' && !inQuote):
			out = append(out, q[start:i])
			start = i + 1
		}
	}
	return out
}
