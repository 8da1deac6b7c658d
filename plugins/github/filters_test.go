package github

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/sdk"
)

// fixture is the repository fakes.NewGitHub serves.
var fixture = fakes.GenerateGitHubRepo("octo-org", "octo-repo", 150, 120)

func assigned(us []fakes.GitHubUser, want string) bool {
	switch want {
	case "none":
		return len(us) == 0
	case "*":
		return len(us) > 0
	}
	return slices.ContainsFunc(us, func(u fakes.GitHubUser) bool { return u.Login == want })
}

func inMilestone(m *fakes.GitHubMilestone, want string) bool {
	switch want {
	case "none":
		return m == nil
	case "*":
		return m != nil
	}
	return m != nil && (m.Title == want || itoa(m.Number) == want)
}

func TestIssueAssigneesAndMilestonesGoToTheListing(t *testing.T) {
	tests := []struct {
		name                 string
		assignees, milestone []string
		wantQueries          []string // one listing each
		wantMilestones       bool     // the milestones were listed to resolve a title or number
	}{
		{"one assignee", []string{"hubot"}, nil, []string{"assignee=hubot"}, false},
		{"two assignees, one listing each", []string{"hubot", "octocat"}, nil, []string{"assignee=hubot", "assignee=octocat"}, false},
		{"unassigned", []string{"none"}, nil, []string{"assignee=none"}, false},
		{"a milestone by title", nil, []string{"v1.1"}, []string{"milestone=2&"}, true},
		{"a milestone by number", nil, []string{"3"}, []string{"milestone=3&"}, true},
		{"any milestone", nil, []string{"*"}, []string{"milestone=%2A"}, false},
		{"no milestone, assigned to octocat", []string{"octocat"}, []string{"none"}, []string{"assignee=octocat&direction=desc&milestone=none"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := 0
			for _, it := range fixture.Issues {
				if it.PullRequest == nil &&
					(len(tt.assignees) == 0 || slices.ContainsFunc(tt.assignees, func(a string) bool { return assigned(it.Assignees, a) })) &&
					(len(tt.milestone) == 0 || slices.ContainsFunc(tt.milestone, func(m string) bool { return inMilestone(it.Milestone, m) })) {
					want++
				}
			}
			require.Positive(t, want)
			h := newHarness(t, nil)
			records, err := h.fetch(t, sdk.FetchRequest{Kind: "issue", Filters: map[string][]string{"assignees": tt.assignees, "milestones": tt.milestone}})
			require.NoError(t, err)
			assert.Len(t, records, want)
			var listings []string
			milestones := 0
			for _, uri := range h.fake.Requests() {
				switch {
				case strings.Contains(uri, "/milestones?"):
					milestones++
					assert.Contains(t, uri, "state=all")
				case strings.Contains(uri, "page=1&"):
					listings = append(listings, uri)
				}
			}
			require.Len(t, listings, len(tt.wantQueries))
			for i, q := range tt.wantQueries {
				assert.Contains(t, listings[i], q)
			}
			if tt.wantMilestones {
				assert.Equal(t, 1, milestones, "listed once per fetch")
			} else {
				assert.Zero(t, milestones)
			}
		})
	}
}

func TestUnknownMilestoneSaysWhatTheRepositoryHas(t *testing.T) {
	h := newHarness(t, nil)
	_, err := h.fetch(t, sdk.FetchRequest{Kind: "issue", Filters: map[string][]string{"milestones": {"v9"}}})
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrBadRequest)
	assert.Contains(t, err.Error(), `no milestone "v9" in repository "octo-org/octo-repo" (it has 3: "v1.0", "v1.1", "v2.0"); want a number, a title, "none" or "*"`)
}

func TestAssigneesAndMilestonesOnlyForIssuesAndPullRequests(t *testing.T) {
	h := newHarness(t, nil)
	_, err := h.fetch(t, sdk.FetchRequest{Kind: "commit", Filters: map[string][]string{"assignees": {"hubot"}}})
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrBadRequest)
	assert.Contains(t, err.Error(), `filters "assignees" and "milestones" apply to issues and pull requests, not commits`)
}

// TestPullRequestFiltersSearchOrList: what the search API can say goes to
// /search/issues; the rest ("*", a value it cannot quote) lists /pulls
// and filters here. Both give the pull requests the fixture holds.
func TestPullRequestFiltersSearchOrList(t *testing.T) {
	tests := []struct {
		name       string
		filters    map[string][]string
		keep       func(fakes.GitHubPullRequest) bool
		wantSearch []string // the q of each search; none: listed
	}{
		{"assignee", map[string][]string{"assignees": {"defunkt"}},
			func(pr fakes.GitHubPullRequest) bool { return assigned(pr.Assignees, "defunkt") },
			[]string{`repo:octo-org/octo-repo is:pr assignee:defunkt`}},
		{"unassigned and open", map[string][]string{"assignees": {"none"}, "statuses": {"open"}},
			func(pr fakes.GitHubPullRequest) bool { return len(pr.Assignees) == 0 && pr.State == "open" },
			[]string{`repo:octo-org/octo-repo is:pr is:open no:assignee`}},
		{"milestone by number, two authors", map[string][]string{"milestones": {"2"}, "authors": {"hubot", "octocat"}},
			func(pr fakes.GitHubPullRequest) bool {
				return inMilestone(pr.Milestone, "2") && (pr.User.Login == "hubot" || pr.User.Login == "octocat")
			},
			[]string{`repo:octo-org/octo-repo is:pr author:hubot milestone:"v1.1"`, `repo:octo-org/octo-repo is:pr author:octocat milestone:"v1.1"`}},
		{"no milestone, closed unmerged", map[string][]string{"milestones": {"none"}, "statuses": {"closed"}},
			func(pr fakes.GitHubPullRequest) bool {
				return pr.Milestone == nil && pr.State == "closed" && pr.MergedAt == nil
			},
			[]string{`repo:octo-org/octo-repo is:pr is:closed is:unmerged no:milestone`}},
		{"any assignee is listed", map[string][]string{"assignees": {"*"}, "labels": {"auth"}},
			func(pr fakes.GitHubPullRequest) bool {
				return len(pr.Assignees) > 0 && slices.ContainsFunc(pr.Labels, func(l fakes.GitHubLabel) bool { return l.Name == "auth" })
			}, nil},
		{"any milestone is listed", map[string][]string{"milestones": {"*"}},
			func(pr fakes.GitHubPullRequest) bool { return pr.Milestone != nil }, nil},
		{"a label past 256 characters is listed", map[string][]string{"labels": {strings.Repeat("l", 250)}},
			func(fakes.GitHubPullRequest) bool { return false }, nil},
		{"a login that is not one is listed", map[string][]string{"authors": {"hubot repo:other/repo"}},
			func(fakes.GitHubPullRequest) bool { return false }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []string
			for _, pr := range fixture.PullRequests {
				if tt.keep(pr) {
					want = append(want, testRepo+"#"+itoa(pr.Number))
				}
			}
			h := newHarness(t, nil)
			records, err := h.fetch(t, sdk.FetchRequest{Kind: "pull_request", Filters: tt.filters})
			require.NoError(t, err)
			var got []string
			for _, r := range records {
				got = append(got, r.ID)
			}
			assert.ElementsMatch(t, want, got)
			var searches []string
			for _, uri := range h.fake.Requests() {
				if strings.Contains(uri, "/search/issues?") {
					searches = append(searches, queryOf(t, uri))
				}
			}
			assert.Equal(t, tt.wantSearch, searches)
			if tt.wantSearch == nil {
				assert.Contains(t, h.logs.String(), "would not fit the search API's limits; listing pull requests instead")
			}
		})
	}
}
