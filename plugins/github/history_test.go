package github

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

func TestFetchCommits(t *testing.T) {
	since := time.Date(2024, 3, 20, 0, 0, 0, 0, time.UTC)
	until := time.Date(2024, 3, 27, 0, 0, 0, 0, time.UTC)
	h := newHarness(t, nil)
	all, err := h.fetch(t, sdk.FetchRequest{Kind: "commit"})
	require.NoError(t, err)
	require.Len(t, all, len(h.fake.Repo.Commits), "every page")
	for i, r := range all {
		c := h.fake.Repo.Commits[i]
		assert.Equal(t, c.SHA, r.ID, "the full SHA")
		assert.Len(t, r.ID, 40)
		assert.Equal(t, sdk.KindCommit, r.Kind)
		assert.Equal(t, strings.SplitN(c.Commit.Message, "\n", 2)[0], r.Title)
		assert.Equal(t, c.Commit.Message, r.Body)
		assert.Equal(t, c.Commit.Author.Name, r.Author)
		assert.Equal(t, c.HTMLURL, r.URL)
		assert.True(t, c.Commit.Committer.Date.Equal(r.Time))
		if c.Author != nil {
			assert.Equal(t, c.Author.Login, r.Fields["login"])
		} else {
			assert.NotContains(t, r.Fields, "login", "an e-mail GitHub maps to no account")
		}
	}

	h = newHarness(t, nil)
	got, err := h.fetch(t, sdk.FetchRequest{Kind: "commits", Since: since, Until: until, Filters: map[string][]string{
		"paths": {"payments"}, "authors": {"octocat", "hubot"}, "ref": {"main"}}})
	require.NoError(t, err)
	want := 0
	for _, c := range h.fake.Repo.Commits {
		d := c.Commit.Committer.Date
		if strings.HasPrefix(c.Paths[0], "payments/") && c.Author != nil && (c.Author.Login == "octocat" || c.Author.Login == "hubot") && !d.Before(since) && !d.After(until) {
			want++
		}
	}
	require.Positive(t, want)
	assert.Len(t, got, want)
	reqs := h.fake.Requests()
	require.Len(t, reqs, 2, "one listing per author")
	for _, q := range []string{"/api/v3/repos/octo-org/octo-repo/commits?", "path=payments", "sha=main", "since=2024-03-20T00%3A00%3A00Z", "until=2024-03-27T00%3A00%3A00Z", "author=octocat"} {
		assert.Contains(t, reqs[0], q)
	}
}

func TestFetchReleases(t *testing.T) {
	h := newHarness(t, nil)
	all, err := h.fetch(t, sdk.FetchRequest{Kind: "release"})
	require.NoError(t, err)
	require.Len(t, all, len(h.fake.Repo.Releases))
	first := all[0]
	assert.Equal(t, "octo-org/octo-repo@v1.30.0", first.ID)
	assert.Equal(t, sdk.KindRelease, first.Kind)
	assert.Equal(t, true, first.Fields["draft"])
	assert.NotContains(t, first.Fields, "published_at", "a draft is not published")
	assert.Equal(t, "https://github.com/octo-org/octo-repo/releases/tag/v1.30.0", first.URL)
	assert.Equal(t, true, all[4].Fields["prerelease"])

	h = newHarness(t, nil)
	since := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	got, err := h.fetch(t, sdk.FetchRequest{Kind: "releases", Since: since, Filters: map[string][]string{"statuses": {"open"}}})
	require.NoError(t, err)
	for _, r := range got {
		assert.False(t, r.Time.Before(since), r.ID)
	}
	assert.Len(t, got, 10, "91 days back at one release every ten days")

	// The latest: the newest that is neither a draft nor a prerelease, as
	// GitHub's /releases/latest defines it.
	var latest string
	for _, r := range h.fake.Repo.Releases {
		if !r.Draft && !r.Prerelease {
			latest = "octo-org/octo-repo@" + r.TagName
			break
		}
	}
	h = newHarness(t, nil)
	got, err = h.fetch(t, sdk.FetchRequest{Kind: "release", Limit: 1, Filters: map[string][]string{"statuses": {"latest"}}})
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, latest, got[0].ID)
	assert.NotEqual(t, first.ID, latest, "the fixture's newest is a draft")

	h = newHarness(t, nil)
	got, err = h.fetch(t, sdk.FetchRequest{Kind: "release", Filters: map[string][]string{"authors": {"hubot", "octocat"}}})
	require.NoError(t, err)
	assert.Len(t, got, 16, "releases are authored by four people in turn")
	assert.Len(t, h.fake.Requests(), 1, "one listing, the authors filtered here")
}

func TestFetchWorkflowRuns(t *testing.T) {
	since := time.Date(2024, 3, 20, 0, 0, 0, 0, time.UTC)
	until := time.Date(2024, 3, 27, 0, 0, 0, 0, time.UTC)
	h := newHarness(t, nil)
	all, err := h.fetch(t, sdk.FetchRequest{Kind: "workflow_runs"})
	require.NoError(t, err)
	require.Len(t, all, len(h.fake.Repo.Runs), "every page of the workflow_runs envelope")
	first := all[0]
	assert.Equal(t, "octo-org/octo-repo/actions/runs/800160", first.ID)
	assert.Equal(t, sdk.KindPipeline, first.Kind)
	assert.Equal(t, "CI #160 success on main (push)", first.Title)
	assert.Equal(t, "success", first.Fields["state"])
	assert.Equal(t, "in_progress", all[4].Fields["state"], "a run without a conclusion has its status as state")
	assert.Len(t, first.Fields["sha"], 40)

	h = newHarness(t, nil)
	got, err := h.fetch(t, sdk.FetchRequest{Kind: "pipeline", Since: since, Until: until, Filters: map[string][]string{
		"statuses": {"failed", "running"}, "ref": {"main"}}})
	require.NoError(t, err)
	want := 0
	for _, run := range h.fake.Repo.Runs {
		failed := run.Conclusion != nil && *run.Conclusion == "failure"
		if (failed || run.Status == "in_progress") && run.HeadBranch == "main" && !run.CreatedAt.Before(since) && !run.CreatedAt.After(until) {
			want++
		}
	}
	require.Positive(t, want)
	assert.Len(t, got, want)
	reqs := h.fake.Requests()
	require.Len(t, reqs, 2, "one listing per status")
	for _, q := range []string{"/api/v3/repos/octo-org/octo-repo/actions/runs?", "branch=main", "status=failure", "created=2024-03-20T00%3A00%3A00Z..2024-03-27T00%3A00%3A00Z"} {
		assert.Contains(t, reqs[0], q)
	}
	assert.Contains(t, reqs[1], "status=in_progress")

	_, err = h.fetch(t, sdk.FetchRequest{Kind: "pipeline", Filters: map[string][]string{"statuses": {"purple"}}})
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrBadRequest)
	assert.Contains(t, err.Error(), `unknown pipeline status "purple"`)
}
