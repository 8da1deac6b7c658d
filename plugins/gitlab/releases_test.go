package gitlab

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/sdk"
)

func TestFetchReleasesWalksEveryPage(t *testing.T) {
	h := newHarness(t, nil)
	records, err := h.fetch(t, sdk.FetchRequest{Kind: "releases", Filters: project("group/sub/app")})
	require.NoError(t, err)

	want := h.fake.Project.Releases
	require.Len(t, records, len(want), "all releases over 2 pages")
	for i, r := range records {
		rel := want[i]
		assert.Equal(t, "group/sub/app@"+rel.TagName, r.ID)
		assert.Equal(t, "gitlab", r.Source)
		assert.Equal(t, sdk.KindRelease, r.Kind)
		assert.Equal(t, rel.Description, r.Body)
		assert.Equal(t, rel.Links.Self, r.URL)
		assert.Equal(t, rel.Author.Username, r.Author)
		assert.True(t, rel.ReleasedAt.Equal(r.Time), "the time is released_at")
		assert.Equal(t, rel.TagName, r.Fields["tag"])
		assert.Equal(t, rel.Commit.ID, r.Fields["sha"])
		assert.Equal(t, "group/sub/app", r.Fields["project"])
		assert.Equal(t, i == 0, r.Fields["upcoming_release"], "only the newest is still to come")
		if rel.Name == "" {
			assert.Equal(t, rel.TagName, r.Title, "a release without a name is titled by its tag")
		} else {
			assert.Equal(t, rel.Name, r.Title)
		}
		if len(rel.Milestones) > 0 {
			assert.Equal(t, []string{rel.Milestones[0].Title}, r.Fields["milestones"])
		} else {
			assert.NotContains(t, r.Fields, "milestones")
		}
	}
	assert.Equal(t, "group/sub/app@v2.129.0", records[0].ID)
	assert.Equal(t, "v2.125.0", records[4].Title, "the fake's fifth release has no name")

	reqs := h.fake.Requests()
	require.Len(t, reqs, 2)
	for i, uri := range reqs {
		assert.True(t, strings.HasPrefix(uri, "/api/v4/projects/group%2Fsub%2Fapp/releases?"), uri)
		for _, w := range []string{"order_by=released_at", "sort=desc", "per_page=100", "page=" + string(rune('1'+i))} {
			assert.Contains(t, uri, w)
		}
	}
}

func TestFetchReleasesFilters(t *testing.T) {
	all := fakes.NewGitLab(testToken).Project.Releases
	since := time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC)
	until := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	everyone := func(fakes.GitLabRelease) bool { return true }
	// first lists the IDs of the first n releases keep accepts (0: all).
	first := func(n int, keep func(rel fakes.GitLabRelease) bool) []string {
		var out []string
		for _, rel := range all {
			if keep(rel) && (n == 0 || len(out) < n) {
				out = append(out, "group/sub/app@"+rel.TagName)
			}
		}
		return out
	}
	tests := []struct {
		name         string
		req          sdk.FetchRequest
		want         []string
		wantRequests int
		wantPerPage  string
	}{
		{
			name: "since and until bound released_at; since ends the listing",
			req:  sdk.FetchRequest{Since: since, Until: until},
			want: first(0, func(rel fakes.GitLabRelease) bool {
				return !rel.ReleasedAt.Before(since) && !rel.ReleasedAt.After(until)
			}),
			wantRequests: 1, wantPerPage: "per_page=100",
		},
		{
			name:         "since alone",
			req:          sdk.FetchRequest{Since: since},
			want:         first(0, func(rel fakes.GitLabRelease) bool { return !rel.ReleasedAt.Before(since) }),
			wantRequests: 1, wantPerPage: "per_page=100",
		},
		{
			name:         "until drops the upcoming release and reads every page",
			req:          sdk.FetchRequest{Until: until},
			want:         first(0, func(rel fakes.GitLabRelease) bool { return !rel.ReleasedAt.After(until) }),
			wantRequests: 2, wantPerPage: "per_page=100",
		},
		{
			name:         "a limit shrinks the page",
			req:          sdk.FetchRequest{Limit: 5},
			want:         first(5, everyone),
			wantRequests: 1, wantPerPage: "per_page=5&",
		},
		{
			name:         "a limit with since stays exact",
			req:          sdk.FetchRequest{Limit: 3, Since: since},
			want:         first(3, everyone),
			wantRequests: 1, wantPerPage: "per_page=3&",
		},
		{
			name: "authors in one listing, matched without case",
			req:  sdk.FetchRequest{Filters: map[string][]string{"authors": {"alice,BOB"}}},
			want: first(0, func(rel fakes.GitLabRelease) bool {
				return rel.Author.Username == "alice" || rel.Author.Username == "bob"
			}),
			wantRequests: 2, wantPerPage: "per_page=100",
		},
		{
			name:         "a limit with authors reads full pages",
			req:          sdk.FetchRequest{Limit: 2, Filters: map[string][]string{"authors": {"carol"}}},
			want:         first(2, func(rel fakes.GitLabRelease) bool { return rel.Author.Username == "carol" }),
			wantRequests: 1, wantPerPage: "per_page=100",
		},
		{
			name:         "the latest is the newest released, not the upcoming one",
			req:          sdk.FetchRequest{Limit: 1, Filters: map[string][]string{"statuses": {"latest"}}},
			want:         first(1, func(rel fakes.GitLabRelease) bool { return rel.ReleasedAt.Before(time.Now()) }),
			wantRequests: 1, wantPerPage: "per_page=100",
		},
		{
			name:         "statuses do not apply to releases",
			req:          sdk.FetchRequest{Filters: map[string][]string{"statuses": {"open"}}},
			want:         first(0, everyone),
			wantRequests: 2, wantPerPage: "per_page=100",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			tt.req.Kind = "release"
			if tt.req.Filters == nil {
				tt.req.Filters = map[string][]string{}
			}
			tt.req.Filters["projects"] = []string{"group/sub/app"}
			records, err := h.fetch(t, tt.req)
			require.NoError(t, err)
			require.NotEmpty(t, tt.want, "the case must select something")
			var got []string
			for _, r := range records {
				got = append(got, r.ID)
			}
			assert.Equal(t, tt.want, got)
			reqs := h.fake.Requests()
			assert.Len(t, reqs, tt.wantRequests)
			assert.Contains(t, reqs[0], tt.wantPerPage)
		})
	}
}

func TestFetchReleasesErrors(t *testing.T) {
	tests := []struct {
		name    string
		project string
		fault   *fakes.Fault
		token   string // "" keeps the right token
		kind    error
		want    []string
	}{
		{
			name: "unknown project is not found", project: "group/missing",
			kind: sdk.ErrNotFound, want: []string{`project "group/missing" not found`, "404 Project Not Found"},
		},
		{
			name: "wrong token is unauthorized", project: "group/sub/app", token: "wrong",
			kind: sdk.ErrUnauthorized, want: []string{`token rejected for project "group/sub/app"`, "401 Unauthorized"},
		},
		{
			name: "releases forbidden to the token", project: "group/sub/app",
			fault: &fakes.Fault{PathContains: "/releases", Status: 403, Body: `{"message":"403 Forbidden"}`},
			kind:  sdk.ErrUnauthorized, want: []string{`access to project "group/sub/app" forbidden`, "403 Forbidden"},
		},
		{
			name: "a second page that fails", project: "group/sub/app",
			fault: &fakes.Fault{PathContains: "page=2", Status: 404, Body: `{"message":"404 Project Not Found"}`},
			kind:  sdk.ErrNotFound, want: []string{`"group/sub/app"`},
		},
		{
			name: "a malformed release", project: "group/sub/app",
			fault: &fakes.Fault{PathContains: "/releases", Status: 200, Body: `[{"tag_name":"v1","upcoming_release":"soon"}]`},
			kind:  sdk.ErrUnavailable, want: []string{"malformed response"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			if tt.fault != nil {
				h.fake.Fail(*tt.fault)
			}
			if tt.token != "" {
				h.fake.Token = tt.token
			}
			var err error
			require.NotPanics(t, func() { _, err = h.fetch(t, sdk.FetchRequest{Kind: "release", Filters: project(tt.project)}) })
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.kind)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.NotContains(t, err.Error(), testToken)
		})
	}
}

func TestFetchReleasesRetriesARateLimit(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.Fail(fakes.Fault{PathContains: "/releases", Status: 429, Header: hdr("Retry-After", "7")})
	records, err := h.fetch(t, sdk.FetchRequest{Kind: "release", Filters: project("group/sub/app"), Limit: 10})
	require.NoError(t, err)
	assert.Len(t, records, 10)
	assert.Equal(t, []time.Duration{7 * time.Second}, h.waits.Recorded())
}

// TestFakeReleasesFollowTheDocs checks the fake's releases endpoint against
// GitLab's documentation, which the tests above rely on: ordering, the
// HTML description on request, X-Total and rejected parameters.
func TestFakeReleasesFollowTheDocs(t *testing.T) {
	fake := fakes.NewGitLab(testToken)
	srv := httptest.NewServer(fake)
	defer srv.Close()
	get := func(query string) (*http.Response, []map[string]any) {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/api/v4/projects/42/releases?"+query, nil)
		require.NoError(t, err)
		req.Header.Set("PRIVATE-TOKEN", testToken)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var items []map[string]any
		if resp.StatusCode == http.StatusOK {
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&items))
		}
		return resp, items
	}

	resp, items := get("")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Len(t, items, 20, "20 per page by default")
	assert.Equal(t, "130", resp.Header.Get("X-Total"))
	assert.Equal(t, "2", resp.Header.Get("X-Next-Page"))
	for _, key := range []string{"tag_name", "name", "description", "created_at", "released_at", "upcoming_release",
		"author", "commit", "commit_path", "tag_path", "assets", "evidences", "_links"} {
		assert.Contains(t, items[1], key)
	}
	assert.NotContains(t, items[1], "description_html", "only with include_html_description")
	assert.Equal(t, true, items[0]["upcoming_release"])
	assert.Equal(t, false, items[1]["upcoming_release"])
	assert.Equal(t, "https://gitlab.example.com/group/sub/app/-/releases/v2.128.0", items[1]["_links"].(map[string]any)["self"])

	_, items = get("order_by=created_at&sort=asc&include_html_description=true&per_page=100&page=2")
	require.Len(t, items, 30)
	assert.Equal(t, "v2.129.0", items[29]["tag_name"], "the upcoming release was created last")
	assert.Contains(t, items[0], "description_html")

	for _, bad := range []string{"order_by=name", "sort=up"} {
		resp, _ = get(bad)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, bad)
	}
}
