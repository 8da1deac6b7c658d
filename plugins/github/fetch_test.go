package github

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
)

func TestFetchIssuesWalksEveryPageAndSkipsPullRequests(t *testing.T) {
	h := newHarness(t, nil)
	records, err := h.fetch(t, sdk.FetchRequest{Kind: "issue"})
	require.NoError(t, err)

	var want []fakes.GitHubIssue
	for _, it := range h.fake.Repo.Issues {
		if it.PullRequest == nil {
			want = append(want, it)
		}
	}
	require.Len(t, records, len(want), "issues only, pull requests skipped")
	for i, r := range records {
		it := want[i]
		assert.Equal(t, testRepo+"#"+itoa(it.Number), r.ID)
		assert.Equal(t, "github", r.Source)
		assert.Equal(t, sdk.KindIssue, r.Kind)
		assert.Equal(t, it.Title, r.Title)
		assert.Equal(t, it.Body, r.Body)
		assert.Equal(t, it.HTMLURL, r.URL)
		assert.Equal(t, it.User.Login, r.Author)
		assert.True(t, it.UpdatedAt.Equal(r.Time))
		assert.Equal(t, it.State, r.Fields["state"])
		assert.Equal(t, int64(it.Number), r.Fields["number"])
		assert.Contains(t, r.Fields["labels"], "bug")
	}
	reqs := h.fake.Requests()
	require.Len(t, reqs, 3, "270 items at 100 a page, following Link next")
	for i, uri := range reqs {
		assert.True(t, strings.HasPrefix(uri, "/api/v3/repos/octo-org/octo-repo/issues?"), uri)
		assert.Contains(t, uri, "per_page=100")
		assert.Contains(t, uri, "page="+itoa(i+1))
		assert.Contains(t, uri, "state=all")
		assert.Contains(t, uri, "sort=updated")
	}
}

func TestFetchPullRequestStates(t *testing.T) {
	p := fakes.GenerateGitHubRepo("octo-org", "octo-repo", 150, 120)
	count := func(state string) int {
		n := 0
		for _, pr := range p.PullRequests {
			merged := pr.MergedAt != nil
			if (state == "open" && pr.State == "open") || (state == "merged" && merged) || (state == "closed" && pr.State == "closed" && !merged) {
				n++
			}
		}
		return n
	}
	tests := []struct {
		statuses  []string
		want      int
		wantState []string
		wantQuery string
	}{
		{[]string{"open"}, count("open"), []string{"open"}, "state=open"},
		{[]string{"merged"}, count("merged"), []string{"merged"}, "state=closed"},
		{[]string{"closed"}, count("closed"), []string{"closed"}, "state=closed"},
		{[]string{"merged,closed"}, count("merged") + count("closed"), []string{"merged", "closed"}, "state=closed"},
		{nil, len(p.PullRequests), []string{"open", "merged", "closed"}, "state=all"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.statuses, "+"), func(t *testing.T) {
			require.Positive(t, tt.want)
			h := newHarness(t, nil)
			records, err := h.fetch(t, sdk.FetchRequest{Kind: "pull_request", Filters: map[string][]string{"statuses": tt.statuses}})
			require.NoError(t, err)
			assert.Len(t, records, tt.want)
			for _, r := range records {
				assert.Equal(t, sdk.KindPullRequest, r.Kind)
				assert.Contains(t, tt.wantState, r.Fields["state"])
				assert.Contains(t, r.URL, "/pull/")
				switch r.Fields["state"] {
				case "merged":
					assert.IsType(t, time.Time{}, r.Fields["merged_at"])
					assert.Len(t, r.Fields["merge_commit_sha"], 40, "full SHA")
				case "closed":
					assert.NotContains(t, r.Fields, "merged_at")
					assert.IsType(t, time.Time{}, r.Fields["closed_at"])
				}
			}
			assert.Contains(t, h.fake.Requests()[0], tt.wantQuery)
		})
	}
}

func TestFetchFilters(t *testing.T) {
	since := time.Date(2024, 3, 20, 0, 0, 0, 0, time.UTC)
	until := time.Date(2024, 3, 27, 0, 0, 0, 0, time.UTC)
	p := fakes.GenerateGitHubRepo("octo-org", "octo-repo", 150, 120)
	in := func(t time.Time) bool { return !t.Before(since) && !t.After(until) }
	countIssues := func(keep func(fakes.GitHubIssue) bool) int {
		n := 0
		for _, it := range p.Issues {
			if it.PullRequest == nil && keep(it) {
				n++
			}
		}
		return n
	}
	countPulls := func(keep func(fakes.GitHubPullRequest) bool) int {
		n := 0
		for _, pr := range p.PullRequests {
			if keep(pr) {
				n++
			}
		}
		return n
	}
	hasLabel := func(ls []fakes.GitHubLabel, name string) bool {
		return slices.ContainsFunc(ls, func(l fakes.GitHubLabel) bool { return l.Name == name })
	}
	tests := []struct {
		name      string
		req       sdk.FetchRequest
		want      int
		wantQuery []string
		maxPages  int
	}{
		{
			name: "open and in-progress issues (GitHub has one open state) by two authors with labels, updated in a range",
			req: sdk.FetchRequest{Kind: "issue", Since: since, Until: until, Filters: map[string][]string{
				"statuses": {"open", "in-progress"}, "authors": {"octocat", "monalisa"}, "labels": {"bug,search"}}},
			want: countIssues(func(it fakes.GitHubIssue) bool {
				return it.State == "open" && (it.User.Login == "octocat" || it.User.Login == "monalisa") && hasLabel(it.Labels, "search") && in(it.UpdatedAt)
			}),
			wantQuery: []string{"state=open", "creator=octocat", "labels=bug%2Csearch", "since=2024-03-20T00%3A00%3A00Z"},
		},
		{
			name:      "issues created in a range stop paging past since",
			req:       sdk.FetchRequest{Kind: "issue", Since: since, Until: until, Filters: map[string][]string{"date_field": {"created"}}},
			want:      countIssues(func(it fakes.GitHubIssue) bool { return in(it.CreatedAt) }),
			wantQuery: []string{"sort=created", "direction=desc"},
			maxPages:  1,
		},
		{
			name: "merged pull requests by an author with a label into main, updated in a range",
			req: sdk.FetchRequest{Kind: "pr", Since: since, Until: until, Filters: map[string][]string{
				"statuses": {"merged"}, "authors": {"MonaLisa"}, "labels": {"auth"}, "ref": {"main"}, "date_field": {"updated"}}},
			want: countPulls(func(pr fakes.GitHubPullRequest) bool {
				return pr.MergedAt != nil && pr.User.Login == "monalisa" && hasLabel(pr.Labels, "auth") && in(pr.UpdatedAt)
			}),
			wantQuery: []string{"/search/issues?", "sort=updated", "q=repo%3Aocto-org%2Focto-repo+is%3Apr+is%3Amerged+base%3A%22main%22+label%3A%22auth%22+updated%3A2024-03-20T00%3A00%3A00Z..2024-03-27T00%3A00%3A00Z+author%3AMonaLisa"},
			maxPages:  1,
		},
		{
			// "which PRs were merged last week?": the range bounds merged_at.
			name: "merged pull requests in a range, the engine's revisions as the base branch",
			req: sdk.FetchRequest{Kind: "pull_request", Since: since, Until: until, Filters: map[string][]string{
				"statuses": {"merged"}, "revisions": {"main"}}},
			want: countPulls(func(pr fakes.GitHubPullRequest) bool {
				return pr.MergedAt != nil && pr.Base.Ref == "main" && in(*pr.MergedAt)
			}),
			wantQuery: []string{"/search/issues?", "is%3Amerged", "base%3A%22main%22", "merged%3A2024-03-20T00%3A00%3A00Z..2024-03-27T00%3A00%3A00Z"},
			maxPages:  1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Positive(t, tt.want, "the fixture must have matching records")
			h := newHarness(t, nil)
			records, err := h.fetch(t, tt.req)
			require.NoError(t, err)
			assert.Len(t, records, tt.want)
			first := h.fake.Requests()[0]
			for _, q := range tt.wantQuery {
				assert.Contains(t, first, q)
			}
			if tt.maxPages > 0 {
				assert.LessOrEqual(t, len(h.fake.Requests()), tt.maxPages, "listing stops once items pass since")
			}
		})
	}
}

func TestFetchLimitShrinksPagesOnlyWhenEveryItemCounts(t *testing.T) {
	tests := []struct {
		req         sdk.FetchRequest
		wantPerPage string
	}{
		{sdk.FetchRequest{Kind: "pull_request", Limit: 7}, `per_page=7(&|$)`},
		{sdk.FetchRequest{Kind: "commit", Limit: 7}, `per_page=7(&|$)`},
		{sdk.FetchRequest{Kind: "issue", Limit: 7}, "per_page=100"},
		{sdk.FetchRequest{Kind: "pull_request", Limit: 7, Filters: map[string][]string{"statuses": {"merged"}}}, "per_page=100"},
	}
	for _, tt := range tests {
		h := newHarness(t, nil)
		records, err := h.fetch(t, tt.req)
		require.NoError(t, err)
		assert.Len(t, records, 7)
		require.Len(t, h.fake.Requests(), 1, "%+v", tt.req)
		assert.Regexp(t, tt.wantPerPage, h.fake.Requests()[0], "%+v", tt.req)
	}
}

func TestFetchBadRequests(t *testing.T) {
	h := newHarness(t, map[string]any{"repo": ""})
	tests := []struct {
		name string
		req  sdk.FetchRequest
		want string
	}{
		{"no repository", sdk.FetchRequest{}, "no repository"},
		{"bad repository", sdk.FetchRequest{Filters: map[string][]string{"projects": {"justaname"}}}, "want owner/name"},
		{"another repository's name alone", sdk.FetchRequest{Filters: map[string][]string{"projects": {"payments"}}}, "want owner/name"},
		{"unknown kind", sdk.FetchRequest{Kind: "wiki", Filters: map[string][]string{"projects": {testRepo}}}, `unknown kind "wiki"`},
		{"merged issues", sdk.FetchRequest{Kind: "issue", Filters: map[string][]string{"projects": {testRepo}, "statuses": {"merged"}}}, `unknown issue status "merged"`},
		{"two refs", sdk.FetchRequest{Kind: "pr", Filters: map[string][]string{"projects": {testRepo}, "ref": {"a", "b"}}}, `filter "ref" takes one value`},
		{"a revision range", sdk.FetchRequest{Kind: "pipeline", Filters: map[string][]string{"projects": {testRepo}, "revisions": {"v1.0..v1.1"}}}, `"v1.0..v1.1" is a range`},
		{"two paths", sdk.FetchRequest{Kind: "commit", Filters: map[string][]string{"projects": {testRepo}, "paths": {"a", "b"}}}, `filter "paths" takes one value`},
		{"bad date_field", sdk.FetchRequest{Filters: map[string][]string{"projects": {testRepo}, "date_field": {"closed"}}}, `"date_field"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.fetch(t, tt.req)
			require.Error(t, err)
			assert.ErrorIs(t, err, sdk.ErrBadRequest)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	assert.Empty(t, h.fake.Requests(), "bad requests never reach the server")
}

func TestFetchReturnsEmitErrorUnchanged(t *testing.T) {
	h := newHarness(t, nil)
	stop := errors.New("consumer is full")
	n := 0
	err := h.source.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	assert.Same(t, stop, err)
	assert.Equal(t, 3, n)
}

func TestEnterpriseBaseURLs(t *testing.T) {
	fake := fakes.NewGitHub(testToken)
	fake.Enterprise = true
	srv := httptest.NewServer(fake)
	defer srv.Close()
	for _, base := range []string{srv.URL, srv.URL + "/", srv.URL + "/api/v3", srv.URL + "/api/v3/"} {
		s := New(WithEnv(func(string) string { return "" }))
		plugintest.Configure(t, s, map[string]any{"base_url": base, "token": testToken, "repo": testRepo})
		records := plugintest.Fetch(t, s, sdk.FetchRequest{Limit: 3})
		assert.Len(t, records, 3, base)
	}
	for _, uri := range fake.Requests() {
		assert.True(t, strings.HasPrefix(uri, "/api/v3/repos/"), uri)
	}
}

func TestBaseURLFromEnvironment(t *testing.T) {
	fake := fakes.NewGitHub(testToken)
	fake.Enterprise = true
	srv := httptest.NewServer(fake)
	defer srv.Close()
	env := map[string]string{"GITHUB_API_URL": srv.URL + "/api/v3", "GH_TOKEN": testToken}
	s := New(WithEnv(func(k string) string { return env[k] }))
	plugintest.Configure(t, s, map[string]any{"repo": testRepo})
	records := plugintest.Fetch(t, s, sdk.FetchRequest{Kind: "pull_request", Limit: 2})
	assert.Len(t, records, 2)
	assert.Equal(t, 1, fake.Used(true), "GH_TOKEN authenticated the request")
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestFetchProjectByName reads "the octo-repo repo" as the configured
// repository; another name alone says which repository it is not.
func TestFetchProjectByName(t *testing.T) {
	h := newHarness(t, nil)
	records, err := h.fetch(t, sdk.FetchRequest{Kind: "release", Limit: 2, Filters: map[string][]string{"projects": {"Octo-Repo"}}})
	require.NoError(t, err)
	require.Len(t, records, 2)
	assert.True(t, strings.HasPrefix(records[0].ID, testRepo+"@"), records[0].ID)

	_, err = h.fetch(t, sdk.FetchRequest{Kind: "release", Filters: map[string][]string{"projects": {"payments"}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"payments" is not the configured repository octo-org/octo-repo: name another as owner/name`)
}
