package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ghToken = "ghp_FakeTokenThatMustNeverShow1234"

// inClone makes a repository whose origin is origin the working directory,
// as a clone of a hosted project is.
func inClone(t *testing.T, origin string) string {
	t.Helper()
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add gateway retry": "2026-11-05T15:00:00Z"})
	askGit(t, repo, nil, "remote", "add", "origin", origin)
	t.Chdir(repo)
	return repo
}

// withGitHub serves the fake GitHub (octo-org/octo-repo) and points the
// environment at it as GitHub Actions does (GITHUB_API_URL), with a token
// unless token is "".
func withGitHub(t *testing.T, token string) *fakes.GitHub {
	t.Helper()
	gh := fakes.NewGitHub(ghToken)
	gh.Enterprise = true // a host other than api.github.com is GitHub Enterprise Server's API, under /api/v3
	srv := httptest.NewServer(gh)
	t.Cleanup(srv.Close)
	t.Setenv("GITHUB_API_URL", srv.URL+"/api/v3")
	t.Setenv("GITHUB_TOKEN", token)
	return gh
}

// askJSON runs nous ask --format json and decodes the report.
func askJSON(t *testing.T, question string) (report.Document, string, int) {
	t.Helper()
	out, stderr, code := runAsk(t, "--format", "json", question)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc), "stdout: %s\nstderr: %s", out, stderr)
	assert.NotContains(t, out+stderr, ghToken)
	return doc, stderr, code
}

// recordIDs lists the IDs of the records of kind.
func recordIDs(doc report.Document, kind string) []string {
	var ids []string
	for _, r := range doc.Result.Records {
		if r.Kind == kind {
			ids = append(ids, r.ID)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

func TestDefaultsReadPullRequestsOfTheOriginsGitHubProject(t *testing.T) {
	withoutTokens(t)
	inClone(t, "git@github.com:octo-org/octo-repo.git")
	gh := withGitHub(t, ghToken)

	from, to := time.Date(2024, 3, 25, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 29, 0, 0, 0, 0, time.UTC)
	// Pull requests are touched after they merge: one merged in the period
	// was updated after it, one merged before it was updated in it.
	touched := map[bool]bool{}
	for i, pr := range gh.Repo.PullRequests {
		if pr.MergedAt == nil || touched[pr.MergedAt.Before(from)] {
			continue
		}
		in := !pr.MergedAt.Before(from) && pr.MergedAt.Before(to)
		if !in && !pr.MergedAt.Before(from) {
			continue
		}
		updated := map[bool]time.Time{true: to.Add(48 * time.Hour), false: from.Add(time.Hour)}[in]
		gh.Repo.PullRequests[i].UpdatedAt = updated
		for j := range gh.Repo.Issues {
			if gh.Repo.Issues[j].Number == pr.Number {
				gh.Repo.Issues[j].UpdatedAt = updated
			}
		}
		touched[pr.MergedAt.Before(from)] = true
	}
	require.Len(t, touched, 2)
	var want []string
	for _, pr := range gh.Repo.PullRequests {
		if pr.MergedAt != nil && !pr.MergedAt.Before(from) && pr.MergedAt.Before(to) {
			want = append(want, "octo-org/octo-repo#"+strconv.Itoa(pr.Number))
		}
	}
	slices.Sort(want)
	require.NotEmpty(t, want, "the fake has pull requests merged in the period")

	doc, stderr, code := askJSON(t, "which PRs were merged between 2024-03-25 and 2024-03-28?")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, runner.ResultSuccess, doc.Result.Status, doc.Result.Error)
	assert.Equal(t, []string{"query_pull_requests"}, intentTypes(doc), "a pull-request question, not a commit one")
	assert.Equal(t, want, recordIDs(doc, sdk.KindPullRequest), "exactly the pull requests merged in the period")
	for _, r := range doc.Result.Records {
		assert.Equal(t, "merged", r.Fields["state"], r.ID)
		assert.Equal(t, "github", r.Source)
	}
	assert.Empty(t, recordIDs(doc, sdk.KindCommit), "no commits pose as the answer")
	assert.Contains(t, doc.Result.Report, want[0])
	assert.NotEmpty(t, gh.Requests(), "the origin's project was asked")

	// An empty period says so and names the nearest merged pull request,
	// through the intent's filter step, without a search loop.
	doc, stderr, code = askJSON(t, "which PRs were merged last week?")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, runner.ResultPartial, doc.Result.Status)
	assert.Contains(t, doc.Result.Report, "Pull requests with status merged, 2026-11-02 – 2026-11-08: no pull requests; the most recent before that is `octo-org/octo-repo#")
	assert.Equal(t, "converged", string(doc.History.Termination))
	for _, uri := range gh.Requests() {
		assert.True(t, strings.Contains(uri, "octo-org/octo-repo") || strings.Contains(uri, "octo-org%2Focto-repo"), uri)
	}
}

func TestDefaultsReadTheLatestReleaseAndCIOfTheOriginsGitHubProject(t *testing.T) {
	withoutTokens(t)
	inClone(t, "https://github.com/octo-org/octo-repo.git")
	gh := withGitHub(t, ghToken)
	// CI ran last week (the runs are "last week" by default), every 3 hours.
	lastWeek := time.Date(2026, 11, 8, 21, 0, 0, 0, time.UTC) // askNow is 2026-11-10
	for i := range gh.Repo.Runs {
		at := lastWeek.Add(-time.Duration(i) * 3 * time.Hour)
		gh.Repo.Runs[i].CreatedAt, gh.Repo.Runs[i].UpdatedAt = at, at.Add(12*time.Minute)
	}

	t.Run("latest release", func(t *testing.T) {
		var latest fakes.GitHubRelease
		for _, r := range gh.Repo.Releases { // newest first; the latest is neither a draft nor a prerelease
			if !r.Draft && !r.Prerelease {
				latest = r
				break
			}
		}
		doc, stderr, code := askJSON(t, "what is in the latest release?")
		require.Equal(t, 0, code, stderr)
		assert.Equal(t, []string{"octo-org/octo-repo@" + latest.TagName}, recordIDs(doc, sdk.KindRelease))
		assert.Contains(t, doc.Result.Report, latest.TagName)
		assert.Contains(t, doc.Result.Report, "Releases (the latest): 1 release", "the answer says it is the latest")
	})
	t.Run("CI on main", func(t *testing.T) {
		doc, stderr, code := askJSON(t, "is CI green on main?")
		require.Equal(t, 0, code, stderr)
		runs := recordIDs(doc, sdk.KindPipeline)
		require.NotEmpty(t, runs)
		var latest fakes.GitHubWorkflowRun // newest first: the newest finished on main
		for _, r := range gh.Repo.Runs {
			if r.HeadBranch == "main" && r.Conclusion != nil {
				latest = r
				break
			}
		}
		assert.Contains(t, doc.Result.Report, "- Latest finished: `octo-org/octo-repo/actions/runs/"+strconv.FormatInt(latest.ID, 10)+"`", "the verdict")
		assert.Contains(t, doc.Result.Report, "- States: ")
		for _, r := range doc.Result.Records {
			if r.Kind == sdk.KindPipeline {
				assert.Equal(t, "main", r.Fields["ref"], "only runs on main: %s", r.ID)
			}
		}
	})
	t.Run("status with CI runs and open issues", func(t *testing.T) {
		doc, stderr, code := askJSON(t, "is the project healthy?")
		require.NotEqual(t, 2, code, stderr)
		assert.NotEmpty(t, recordIDs(doc, sdk.KindPipeline), "the status reads CI runs")
		assert.NotEmpty(t, recordIDs(doc, sdk.KindIssue), "and the open issues of the origin's project")
		for _, r := range doc.Result.Records {
			if r.Kind == sdk.KindIssue {
				assert.Equal(t, "open", r.Fields["state"], r.ID)
			}
		}
		assert.NotContains(t, doc.Result.Report, "not configured")
	})
}

func TestDefaultsWithoutAGitHubTokenSayWhatToSet(t *testing.T) {
	withoutTokens(t)
	inClone(t, "https://github.com/octo-org/octo-repo.git")
	gh := withGitHub(t, "")

	for _, q := range []string{"which PRs were merged last week?", "what is in the latest release?", "is CI green on main?"} {
		t.Run(q, func(t *testing.T) {
			doc, stderr, code := askJSON(t, q)
			assert.Equal(t, 1, code, "nothing answers: %s", stderr)
			assert.Equal(t, runner.ResultFailed, doc.Result.Status)
			assert.Contains(t, stderr, `source "github" is not configured: set GITHUB_TOKEN (or GH_TOKEN) to read octo-org/octo-repo on GitHub`)
		})
	}
	doc, stderr, _ := askJSON(t, "are there open bugs?")
	assert.Equal(t, runner.ResultFailed, doc.Result.Status)
	assert.Contains(t, stderr, "set GITHUB_TOKEN (or GH_TOKEN) to read the issues of octo-org/octo-repo on GitHub")
	assert.Empty(t, gh.Requests(), "without a token nous stays offline")

	// The status answers from the commits and does not plan CI it cannot read.
	doc, stderr, code := askJSON(t, "is the project healthy?")
	require.NotEqual(t, 2, code, stderr)
	for _, p := range doc.Plan.Retrieval.Plans {
		assert.NotEqual(t, sdk.KindPipeline, p.Kind, "no CI retrieval without a CI source")
	}
}

// TestDefaultsInAGitHubCloneIgnoreAStrayGitLabToken: a GitLab token meant
// for other work does not send a GitHub clone's questions to GitLab.
func TestDefaultsInAGitHubCloneIgnoreAStrayGitLabToken(t *testing.T) {
	withoutTokens(t)
	t.Setenv("GITLAB_TOKEN", "glpat-StrayTokenForAnotherProject")
	inClone(t, "https://github.com/octo-org/octo-repo.git")

	doc, stderr, code := askJSON(t, "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	assert.Len(t, recordIDs(doc, sdk.KindCommit), 2, "the local history answers")
	for _, r := range doc.Result.Records {
		assert.Equal(t, "git", r.Source)
	}

	_, stderr, code = askJSON(t, "are there open bugs?")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "set GITHUB_TOKEN (or GH_TOKEN) to read the issues of octo-org/octo-repo on GitHub")
}

func TestDefaultsOutsideAHostedCloneSayWhy(t *testing.T) {
	withoutTokens(t)
	t.Setenv("GITHUB_TOKEN", ghToken)
	inClone(t, "/srv/git/widgets.git")
	_, stderr, code := askJSON(t, "which PRs were merged last week?")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "the repository has no origin remote on GitHub or GitLab")
}

func TestFetchGitHubOnTheDefaults(t *testing.T) {
	withoutTokens(t)
	inClone(t, "https://github.com/octo-org/octo-repo")
	withGitHub(t, ghToken)

	var out, errb bytes.Buffer
	code := run([]string{"fetch", "github", "--kind", "pull_request", "--filter", "statuses=merged", "--limit", "5", "--format", "jsonl"},
		strings.NewReader(""), &out, &errb)
	require.Equal(t, 0, code, errb.String())
	var n int
	for sc := bufio.NewScanner(&out); sc.Scan(); n++ {
		var r sdk.Record
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		assert.Equal(t, sdk.KindPullRequest, r.Kind)
		assert.Equal(t, "merged", r.Fields["state"])
		assert.True(t, strings.HasPrefix(r.ID, "octo-org/octo-repo#"), r.ID)
	}
	assert.Equal(t, 5, n)
	assert.NotContains(t, out.String()+errb.String(), ghToken)
}

func TestDefaultsReadMergeRequestsOfTheOriginsGitLabProject(t *testing.T) {
	withoutTokens(t)
	inClone(t, "git@gitlab.com:group/sub/app.git")
	const token = "glpat-FakeTokenThatMustNeverShow"
	gl := fakes.NewGitLab(token)
	srv := httptest.NewServer(gl)
	t.Cleanup(srv.Close)
	t.Setenv("GITLAB_URL", srv.URL)
	t.Setenv("GITLAB_TOKEN", token)

	var latest time.Time
	for _, mr := range gl.Project.MergeRequests {
		if mr.MergedAt != nil && mr.MergedAt.After(latest) {
			latest = *mr.MergedAt
		}
	}
	day := latest.Format(time.DateOnly)
	doc, stderr, code := askJSON(t, "which merge requests were merged on "+day+"?")
	require.Equal(t, 0, code, stderr)
	mrs := recordIDs(doc, sdk.KindMergeRequest)
	require.NotEmpty(t, mrs, "the pull-request retrieval was rebound to GitLab")
	for _, r := range doc.Result.Records {
		if r.Kind == sdk.KindMergeRequest {
			assert.Equal(t, "gitlab", r.Source)
			assert.Equal(t, "merged", r.Fields["state"], r.ID)
		}
	}
	assert.NotContains(t, doc.Result.Report, "not configured")
	assert.NotContains(t, docJSON(doc), token)
}

func intentTypes(doc report.Document) []string {
	var out []string
	for _, in := range doc.Plan.Reasoning.Intents {
		out = append(out, in.Type)
	}
	return out
}

func docJSON(doc report.Document) string {
	b, _ := json.Marshal(doc)
	return string(b)
}
