package gitlab

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/sdk"
)

func TestFetchCommitsWalksEveryPage(t *testing.T) {
	h := newHarness(t, nil)
	records, err := h.fetch(t, sdk.FetchRequest{Filters: project("group/sub/app")})
	require.NoError(t, err)

	want := h.fake.Project.Commits
	require.Len(t, records, len(want), "all commits over %d pages, without X-Total", (len(want)+99)/100)
	for i, r := range records {
		c := want[i]
		assert.Equal(t, c.ShortID, r.ID)
		assert.Equal(t, "gitlab", r.Source)
		assert.Equal(t, sdk.KindCommit, r.Kind)
		assert.Equal(t, c.Title, r.Title)
		assert.Equal(t, c.Message, r.Body)
		assert.Equal(t, c.WebURL, r.URL)
		assert.Equal(t, c.AuthorName, r.Author)
		assert.True(t, c.CommittedDate.Equal(r.Time))
		assert.Equal(t, c.ID, r.Fields["sha"])
		assert.Equal(t, "group/sub/app", r.Fields["project"])
		assert.Equal(t, c.Stats.Additions, r.Fields["additions"])
		assert.Equal(t, c.Stats.Deletions, r.Fields["deletions"])
	}

	reqs := h.fake.Requests()
	require.Len(t, reqs, 3)
	for i, uri := range reqs {
		assert.True(t, strings.HasPrefix(uri, "/api/v4/projects/group%2Fsub%2Fapp/repository/commits?"), uri)
		assert.Contains(t, uri, "per_page=100")
		assert.Contains(t, uri, "page="+string(rune('1'+i)))
		assert.Contains(t, uri, "with_stats=true")
		assert.NotContains(t, uri, "trailers")
	}
}

func TestFetchLimitStopsPaging(t *testing.T) {
	tests := []struct {
		limit        int
		wantRequests int
		wantPerPage  string
	}{
		{limit: 5, wantRequests: 1, wantPerPage: "per_page=5&"},
		{limit: 100, wantRequests: 1, wantPerPage: "per_page=100"},
		{limit: 130, wantRequests: 2, wantPerPage: "per_page=100"},
		{limit: 1000, wantRequests: 3, wantPerPage: "per_page=100"},
	}
	for _, tt := range tests {
		h := newHarness(t, nil)
		records, err := h.fetch(t, sdk.FetchRequest{Filters: project("group/sub/app"), Limit: tt.limit})
		require.NoError(t, err)
		assert.Len(t, records, min(tt.limit, len(h.fake.Project.Commits)), "limit %d", tt.limit)
		reqs := h.fake.Requests()
		assert.Len(t, reqs, tt.wantRequests, "limit %d", tt.limit)
		assert.Contains(t, reqs[0], tt.wantPerPage)
	}
}

func TestFetchFilters(t *testing.T) {
	since := time.Date(2024, 3, 20, 0, 0, 0, 0, time.UTC)
	until := time.Date(2024, 3, 27, 0, 0, 0, 0, time.UTC)
	p := fakes.GenerateGitLabProject(42, "group/sub/app", 250, 130, 60, 80)
	in := func(t time.Time) bool { return !t.Before(since) && !t.After(until) }
	count := func(n int, keep func(i int) bool) int {
		c := 0
		for i := range n {
			if keep(i) {
				c++
			}
		}
		return c
	}
	tests := []struct {
		name      string
		req       sdk.FetchRequest
		want      int
		wantQuery []string
		check     func(t *testing.T, r sdk.Record)
	}{
		{
			name: "commits in a time range on a path by an author",
			req: sdk.FetchRequest{Since: since, Until: until, Filters: map[string][]string{
				"projects": {"group/sub/app"}, "path": {"payments"}, "authors": {"alice"}, "ref": {"main"}}},
			want: count(len(p.Commits), func(i int) bool {
				c := p.Commits[i]
				return in(c.CommittedDate) && strings.HasPrefix(c.Paths[0], "payments/") && strings.Contains(c.AuthorEmail, "alice")
			}),
			wantQuery: []string{"since=2024-03-20T00%3A00%3A00Z", "until=2024-03-27T00%3A00%3A00Z", "path=payments", "author=alice", "ref_name=main"},
		},
		{
			name: "the engine's paths filter is the API's path",
			req:  sdk.FetchRequest{Filters: map[string][]string{"projects": {"group/sub/app"}, "paths": {"payments"}, "with_stats": {"false"}}},
			want: count(len(p.Commits), func(i int) bool {
				return strings.HasPrefix(p.Commits[i].Paths[0], "payments/")
			}),
			wantQuery: []string{"path=payments"},
		},
		{
			name: "commits of two authors are merged",
			req:  sdk.FetchRequest{Filters: map[string][]string{"projects": {"42"}, "authors": {"alice,bob"}, "with_stats": {"false"}}},
			want: count(len(p.Commits), func(i int) bool { return i%4 == 0 || i%4 == 1 }),
			check: func(t *testing.T, r sdk.Record) {
				assert.Contains(t, []string{"Alice Liddell", "Bob Builder"}, r.Author)
				assert.NotContains(t, r.Fields, "additions")
			},
		},
		{
			name:      "closed issues with labels",
			req:       sdk.FetchRequest{Kind: "issues", Filters: map[string][]string{"projects": {"group/sub/app"}, "statuses": {"resolved"}, "labels": {"bug", "auth"}}},
			want:      count(len(p.Issues), func(i int) bool { return p.Issues[i].State == "closed" && slices.Contains(p.Issues[i].Labels, "auth") }),
			wantQuery: []string{"state=closed", "labels=bug%2Cauth", "order_by=updated_at"},
			check: func(t *testing.T, r sdk.Record) {
				assert.Equal(t, sdk.KindIssue, r.Kind)
				assert.Regexp(t, `^group/sub/app#\d+$`, r.ID)
				assert.Equal(t, "closed", r.Fields["state"])
				assert.Contains(t, r.Fields["labels"], "auth")
				assert.IsType(t, time.Time{}, r.Fields["closed_at"])
			},
		},
		{
			name:      "issues created in a range",
			req:       sdk.FetchRequest{Kind: "issue", Since: since, Until: until, Filters: map[string][]string{"projects": {"group/sub/app"}, "date_field": {"created"}, "statuses": {"open", "closed"}}},
			want:      count(len(p.Issues), func(i int) bool { return in(p.Issues[i].CreatedAt) }),
			wantQuery: []string{"created_after=2024-03-20", "created_before=2024-03-27"},
			check: func(t *testing.T, r sdk.Record) {
				assert.True(t, in(r.Time), "record time is the created time: %s", r.Time)
			},
		},
		{
			name:      "merged merge requests",
			req:       sdk.FetchRequest{Kind: "merge_requests", Filters: map[string][]string{"projects": {"group/sub/app"}, "statuses": {"merged"}, "ref": {"main"}}},
			want:      count(len(p.MergeRequests), func(i int) bool { return p.MergeRequests[i].State == "merged" }),
			wantQuery: []string{"state=merged", "target_branch=main"},
			check: func(t *testing.T, r sdk.Record) {
				assert.Regexp(t, `^group/sub/app!\d+$`, r.ID)
				assert.IsType(t, time.Time{}, r.Fields["merged_at"])
				assert.NotEmpty(t, r.Fields["merge_commit_sha"])
			},
		},
		{
			name:      "failed pipelines on main",
			req:       sdk.FetchRequest{Kind: "pipeline", Filters: map[string][]string{"projects": {"group/sub/app"}, "statuses": {"failed"}, "ref": {"main"}}},
			want:      count(len(p.Pipelines), func(i int) bool { return p.Pipelines[i].Status == "failed" && p.Pipelines[i].Ref == "main" }),
			wantQuery: []string{"status=failed", "ref=main"},
			check: func(t *testing.T, r sdk.Record) {
				assert.Equal(t, "failed", r.Fields["state"])
				assert.Contains(t, r.Title, "failed on main")
			},
		},
		{
			name:      "pipelines on the branch the engine's revisions name",
			req:       sdk.FetchRequest{Kind: "pipeline", Filters: map[string][]string{"projects": {"group/sub/app"}, "revisions": {"main"}}},
			want:      count(len(p.Pipelines), func(i int) bool { return p.Pipelines[i].Ref == "main" }),
			wantQuery: []string{"ref=main"},
		},
		{
			name:      "open and in-progress issues: GitLab's one open state",
			req:       sdk.FetchRequest{Kind: "issue", Filters: map[string][]string{"projects": {"group/sub/app"}, "statuses": {"open", "in-progress"}}},
			want:      count(len(p.Issues), func(i int) bool { return p.Issues[i].State == "opened" }),
			wantQuery: []string{"state=opened"},
		},
		{
			name: "search issues",
			req:  sdk.FetchRequest{Kind: "issue", Filters: map[string][]string{"projects": {"group/sub/app"}, "search": {"search bug"}}},
			want: count(len(p.Issues), func(i int) bool { return strings.Contains(p.Issues[i].Title, "search bug") }),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Positive(t, tt.want, "the fixture must have matching records")
			h := newHarness(t, nil)
			records, err := h.fetch(t, tt.req)
			require.NoError(t, err)
			assert.Len(t, records, tt.want)
			for _, r := range records {
				if tt.check != nil {
					tt.check(t, r)
				}
			}
			first := h.fake.Requests()[0]
			for _, q := range tt.wantQuery {
				assert.Contains(t, first, q)
			}
		})
	}
}

func TestFetchUsesConfiguredProjectsAndOAuth(t *testing.T) {
	h := newHarness(t, map[string]any{"projects": []any{42}, "auth": "oauth"})
	records, err := h.fetch(t, sdk.FetchRequest{Kind: "pipelines", Limit: 10})
	require.NoError(t, err)
	assert.Len(t, records, 10)
	assert.True(t, strings.HasPrefix(h.fake.Requests()[0], "/api/v4/projects/42/pipelines?"))
}

func TestFetchBadRequests(t *testing.T) {
	h := newHarness(t, nil)
	tests := []struct {
		name string
		req  sdk.FetchRequest
		want string
	}{
		{"no project", sdk.FetchRequest{}, "no project"},
		{"unknown kind", sdk.FetchRequest{Kind: "wiki", Filters: project("a/b")}, `unknown kind "wiki"`},
		{"unknown issue status", sdk.FetchRequest{Kind: "issue", Filters: map[string][]string{"projects": {"a/b"}, "statuses": {"merged"}}}, `unknown issue status "merged"`},
		{"unknown pipeline status", sdk.FetchRequest{Kind: "pipeline", Filters: map[string][]string{"projects": {"a/b"}, "statuses": {"green"}}}, `unknown pipeline status "green"`},
		{"two paths", sdk.FetchRequest{Filters: map[string][]string{"projects": {"a/b"}, "path": {"x", "y"}}}, `filter "path" takes one value`},
		{"two grounded paths", sdk.FetchRequest{Filters: map[string][]string{"projects": {"a/b"}, "paths": {"x", "y"}}}, `filter "paths" takes one value`},
		{"bad date_field", sdk.FetchRequest{Filters: map[string][]string{"projects": {"a/b"}, "date_field": {"closed"}}}, `"date_field"`},
		{"bad with_stats", sdk.FetchRequest{Filters: map[string][]string{"projects": {"a/b"}, "with_stats": {"maybe"}}}, `"with_stats"`},
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
	err := h.source.Fetch(context.Background(), sdk.FetchRequest{Filters: project("group/sub/app")}, func(sdk.Record) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	assert.Same(t, stop, err)
	assert.Equal(t, 3, n)
}

func TestFetchSeveralProjects(t *testing.T) {
	h := newHarness(t, nil)
	// The same project by path and by ID: every record once, both listed.
	records, err := h.fetch(t, sdk.FetchRequest{Kind: "pipeline", Filters: map[string][]string{"projects": {"group/sub/app", "42"}}})
	require.NoError(t, err)
	assert.Len(t, records, len(h.fake.Project.Pipelines))
	assert.Len(t, h.fake.Requests(), 2)

	// A missing project after a good one: the good records arrive, then the error names the missing one.
	h = newHarness(t, nil)
	var got []sdk.Record
	err = h.source.Fetch(context.Background(), sdk.FetchRequest{Kind: "issue", Filters: map[string][]string{"projects": {"group/sub/app", "group/gone"}}},
		func(r sdk.Record) error { got = append(got, r); return nil })
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrNotFound)
	assert.Contains(t, err.Error(), `"group/gone"`)
	assert.Len(t, got, len(h.fake.Project.Issues))
}

func TestSelfHostedUnderASubpath(t *testing.T) {
	fake := fakes.NewGitLab(testToken)
	srv := httptest.NewServer(http.StripPrefix("/gitlab", fake))
	defer srv.Close()
	for _, base := range []string{srv.URL + "/gitlab", srv.URL + "/gitlab/", srv.URL + "/gitlab/api/v4"} {
		s := New(WithEnv(func(string) string { return "" }))
		diags, err := s.Configure(context.Background(), json.RawMessage(`{"base_url":"`+base+`","token":"`+testToken+`"}`))
		require.NoError(t, err)
		require.False(t, diags.HasErrors(), "%v", diags)
		n := 0
		err = s.Fetch(context.Background(), sdk.FetchRequest{Kind: "issue", Filters: project("group/sub/app"), Limit: 3}, func(sdk.Record) error { n++; return nil })
		require.NoError(t, err, base)
		assert.Equal(t, 3, n, base)
	}
}

func TestPullRequestKindsAreMergeRequests(t *testing.T) {
	for _, kind := range []string{"pull_request", "pull_requests", "PR", "prs", "pull", "pulls"} {
		t.Run(kind, func(t *testing.T) {
			h := newHarness(t, nil)
			records, err := h.fetch(t, sdk.FetchRequest{Kind: kind, Filters: map[string][]string{
				"projects": {"group/sub/app"}, "statuses": {"merged"}}})
			require.NoError(t, err)
			require.Len(t, records, 20, "every third of the 60 merge requests is merged")
			for _, r := range records {
				assert.Equal(t, sdk.KindMergeRequest, r.Kind, "records keep GitLab's name")
				assert.Equal(t, "merged", r.Fields["state"])
			}
			reqs := h.fake.Requests()
			require.Len(t, reqs, 1)
			assert.True(t, strings.HasPrefix(reqs[0], "/api/v4/projects/group%2Fsub%2Fapp/merge_requests?"), reqs[0])
		})
	}
}
