package fakes

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// GitHub is a fake GitHub REST API for one repository with generated issues
// and pull requests, following GitHub's documentation: Link pagination
// (per_page up to 100), x-ratelimit-* headers on every answer, a primary
// limit that answers 403 once used up, ETags with If-None-Match answered
// 304 (not counted against the limit when the request carried a token),
// and GitHub's error bodies.
// Serve it with httptest.NewServer(g); with Enterprise set, the API lives
// under /api/v3 as on GitHub Enterprise Server.
type GitHub struct {
	Token      string // accepted as "Authorization: Bearer" or "token"
	Repo       GitHubRepo
	Enterprise bool

	// Limit is the primary rate limit per window: 5,000 authenticated, 60
	// anonymous by default. Reset is when the window ends.
	Limit, AnonymousLimit int
	Reset                 time.Time

	// SearchLimit is the search API's own limit per minute: 30
	// authenticated, 10 anonymous by default. SearchReset ends the window;
	// a new one starts with the first search after it.
	SearchLimit, AnonymousSearchLimit int
	SearchReset                       time.Time
	// IncompleteResults is what searches say in incomplete_results (GitHub
	// sets it when a search timed out).
	IncompleteResults bool

	mu          sync.Mutex
	used        map[bool]int // requests counted per authenticated-or-not
	searchUsed  map[bool]int
	notModified int

	faults faults
	log    requestLog
}

// GitHubRepo is the one repository the fake knows.
type GitHubRepo struct {
	Owner, Name  string
	Issues       []GitHubIssue // issues and pull requests, as /issues lists them
	PullRequests []GitHubPullRequest
	Commits      []GitHubCommit
	Releases     []GitHubRelease
	Runs         []GitHubWorkflowRun
	Milestones   []GitHubMilestone
}

// GitHubMilestone is an item of GET /repos/{owner}/{repo}/milestones, as
// issues and pull requests embed it too.
type GitHubMilestone struct {
	ID          int64     `json:"id"`
	Number      int       `json:"number"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	State       string    `json:"state"`
	HTMLURL     string    `json:"html_url"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// GitHubWorkflowRun is an item of GET /repos/{owner}/{repo}/actions/runs.
type GitHubWorkflowRun struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	HeadBranch string     `json:"head_branch"`
	HeadSHA    string     `json:"head_sha"`
	RunNumber  int        `json:"run_number"`
	Event      string     `json:"event"`
	Status     string     `json:"status"`
	Conclusion *string    `json:"conclusion"`
	WorkflowID int64      `json:"workflow_id"`
	HTMLURL    string     `json:"html_url"`
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
	Actor      GitHubUser `json:"actor"`
}

// GitHubGitAuthor is a commit's git author or committer.
type GitHubGitAuthor struct {
	Name  string    `json:"name"`
	Email string    `json:"email"`
	Date  time.Time `json:"date"`
}

// GitHubGitCommit is the git data of a commit.
type GitHubGitCommit struct {
	Author    GitHubGitAuthor `json:"author"`
	Committer GitHubGitAuthor `json:"committer"`
	Message   string          `json:"message"`
}

// GitHubParent is a parent commit reference.
type GitHubParent struct {
	SHA string `json:"sha"`
}

// GitHubCommit is an item of GET /repos/{owner}/{repo}/commits; Paths and
// Branches drive the path and sha filters.
type GitHubCommit struct {
	SHA      string          `json:"sha"`
	Commit   GitHubGitCommit `json:"commit"`
	Author   *GitHubUser     `json:"author"`
	HTMLURL  string          `json:"html_url"`
	Parents  []GitHubParent  `json:"parents"`
	Paths    []string        `json:"-"`
	Branches []string        `json:"-"`
}

// GitHubRelease is an item of GET /repos/{owner}/{repo}/releases.
type GitHubRelease struct {
	ID              int64      `json:"id"`
	TagName         string     `json:"tag_name"`
	TargetCommitish string     `json:"target_commitish"`
	Name            string     `json:"name"`
	Body            string     `json:"body"`
	Draft           bool       `json:"draft"`
	Prerelease      bool       `json:"prerelease"`
	CreatedAt       time.Time  `json:"created_at"`
	PublishedAt     *time.Time `json:"published_at"`
	Author          GitHubUser `json:"author"`
	HTMLURL         string     `json:"html_url"`
}

// GitHubUser is the user shape embedded in issues and pull requests.
type GitHubUser struct {
	Login   string `json:"login"`
	ID      int64  `json:"id"`
	Type    string `json:"type"`
	HTMLURL string `json:"html_url"`
}

// GitHubLabel is a label as GitHub embeds it.
type GitHubLabel struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// GitHubPRLinks is the pull_request object that marks an /issues item as a pull request.
type GitHubPRLinks struct {
	URL      string     `json:"url"`
	HTMLURL  string     `json:"html_url"`
	MergedAt *time.Time `json:"merged_at"`
}

// GitHubIssue is an item of GET /repos/{owner}/{repo}/issues.
type GitHubIssue struct {
	ID          int64            `json:"id"`
	Number      int              `json:"number"`
	Title       string           `json:"title"`
	Body        string           `json:"body"`
	State       string           `json:"state"`
	StateReason *string          `json:"state_reason"`
	User        GitHubUser       `json:"user"`
	Labels      []GitHubLabel    `json:"labels"`
	Assignees   []GitHubUser     `json:"assignees"`
	Milestone   *GitHubMilestone `json:"milestone"`
	Comments    int              `json:"comments"`
	CreatedAt   time.Time        `json:"created_at"`
	UpdatedAt   time.Time        `json:"updated_at"`
	ClosedAt    *time.Time       `json:"closed_at"`
	HTMLURL     string           `json:"html_url"`
	Draft       *bool            `json:"draft,omitempty"` // pull requests only
	PullRequest *GitHubPRLinks   `json:"pull_request,omitempty"`
}

// GitHubBranch is a pull request's head or base.
type GitHubBranch struct {
	Ref string `json:"ref"`
	SHA string `json:"sha"`
}

// GitHubPullRequest is an item of GET /repos/{owner}/{repo}/pulls.
type GitHubPullRequest struct {
	ID             int64            `json:"id"`
	Number         int              `json:"number"`
	Title          string           `json:"title"`
	Body           string           `json:"body"`
	State          string           `json:"state"`
	Draft          bool             `json:"draft"`
	User           GitHubUser       `json:"user"`
	Labels         []GitHubLabel    `json:"labels"`
	Assignees      []GitHubUser     `json:"assignees"`
	Milestone      *GitHubMilestone `json:"milestone"`
	CreatedAt      time.Time        `json:"created_at"`
	UpdatedAt      time.Time        `json:"updated_at"`
	ClosedAt       *time.Time       `json:"closed_at"`
	MergedAt       *time.Time       `json:"merged_at"`
	MergeCommitSHA *string          `json:"merge_commit_sha"`
	Head           GitHubBranch     `json:"head"`
	Base           GitHubBranch     `json:"base"`
	HTMLURL        string           `json:"html_url"`
}

// NewGitHub returns a fake for octo-org/octo-repo with 150 issues, 120 pull
// requests (which /issues lists too), 250 commits and 30 releases, newest
// first, deterministic.
func NewGitHub(token string) *GitHub {
	repo := GenerateGitHubRepo("octo-org", "octo-repo", 150, 120)
	repo.Commits, repo.Releases = GenerateGitHubHistory("octo-org", "octo-repo", 250, 30)
	repo.Runs = GenerateGitHubRuns("octo-org", "octo-repo", 160)
	return &GitHub{Token: token, Repo: repo,
		Limit: 5000, AnonymousLimit: 60, Reset: time.Now().Add(time.Hour).Truncate(time.Second),
		SearchLimit: 30, AnonymousSearchLimit: 10, SearchReset: time.Now().Add(time.Minute).Truncate(time.Second)}
}

// Fail scripts a failure for upcoming requests.
func (g *GitHub) Fail(f Fault) { g.faults.add(f) }

// Requests returns the raw request URIs seen so far.
func (g *GitHub) Requests() []string { return g.log.all() }

// NewWindow starts a new rate-limit window ending at reset, as GitHub does
// once x-ratelimit-reset passes.
func (g *GitHub) NewWindow(reset time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.used, g.Reset = nil, reset
}

// Used returns how many requests counted against the primary limit.
func (g *GitHub) Used(authenticated bool) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.used[authenticated]
}

var githubPeople = []string{"octocat", "hubot", "monalisa", "defunkt"}

// GenerateGitHubRepo builds a repository's data deterministically: item i
// is 3 hours older than item i-1, from 2024-03-31 12:00 UTC. Issue and pull
// request numbers share one sequence, as on GitHub. Every fourth item has
// no milestone, the others one of three in runs of seven; every fifth
// issue and every fourth pull request has no assignee.
func GenerateGitHubRepo(owner, name string, issues, pulls int) GitHubRepo {
	web := "https://github.com/" + owner + "/" + name
	start := time.Date(2024, 3, 31, 12, 0, 0, 0, time.UTC)
	at := func(i int) time.Time { return start.Add(-time.Duration(i) * 3 * time.Hour) }
	user := func(i int) GitHubUser {
		login := githubPeople[i%len(githubPeople)]
		return GitHubUser{Login: login, ID: int64(100 + i%len(githubPeople)), Type: "User", HTMLURL: "https://github.com/" + login}
	}
	areas := []string{"payments", "auth", "search", "docs"}
	repo := GitHubRepo{Owner: owner, Name: name, Milestones: generateGitHubMilestones(web, start)}
	milestone := func(i int) *GitHubMilestone {
		if i%4 == 3 {
			return nil
		}
		m := repo.Milestones[(i/7)%len(repo.Milestones)]
		return &m
	}
	total := issues + pulls
	for i := range total {
		n := total - i
		area := areas[i%len(areas)]
		labels := []GitHubLabel{{ID: 1, Name: "bug", Color: "d73a4a"}, {ID: int64(10 + i%len(areas)), Name: area, Color: "ededed"}}
		made := len(repo.Issues) - len(repo.PullRequests)
		if (i%2 == 1 && len(repo.PullRequests) < pulls) || made == issues { // odd items are pull requests while both last
			pr := GitHubPullRequest{
				ID: int64(9000 + n), Number: n, Title: fmt.Sprintf("Improve %s (%d)", area, n), Body: "Fixes #" + strconv.Itoa(n-1),
				State: "open", Draft: i%10 == 1, User: user(i + 1), Labels: labels[1:], Milestone: milestone(i),
				CreatedAt: at(i + 5), UpdatedAt: at(i), Head: GitHubBranch{Ref: fmt.Sprintf("feature-%d", n), SHA: fakeSHA("head", n)},
				Base: GitHubBranch{Ref: "main", SHA: fakeSHA("base", n)}, HTMLURL: fmt.Sprintf("%s/pull/%d", web, n),
			}
			switch i % 3 {
			case 1:
				t, sha := at(i), fakeSHA("merge", n)
				pr.State, pr.ClosedAt, pr.MergedAt, pr.MergeCommitSHA = "closed", &t, &t, &sha
			case 2:
				t := at(i)
				pr.State, pr.ClosedAt = "closed", &t
			}
			if i%4 != 0 {
				pr.Assignees = []GitHubUser{user(i + 2)}
			}
			repo.PullRequests = append(repo.PullRequests, pr)
			repo.Issues = append(repo.Issues, GitHubIssue{
				ID: int64(9000 + n), Number: n, Title: pr.Title, Body: pr.Body, State: pr.State, User: pr.User, Labels: pr.Labels,
				Assignees: pr.Assignees, Milestone: pr.Milestone, Draft: &pr.Draft,
				CreatedAt: pr.CreatedAt, UpdatedAt: pr.UpdatedAt, ClosedAt: pr.ClosedAt, HTMLURL: pr.HTMLURL,
				PullRequest: &GitHubPRLinks{URL: fmt.Sprintf("https://api.github.com/repos/%s/%s/pulls/%d", owner, name, n), HTMLURL: pr.HTMLURL, MergedAt: pr.MergedAt},
			})
			continue
		}
		it := GitHubIssue{
			ID: int64(1000 + n), Number: n, Title: fmt.Sprintf("%s bug %d", area, n), Body: fmt.Sprintf("Steps to reproduce issue %d.", n),
			State: "open", User: user(i), Labels: labels, Milestone: milestone(i), Comments: i % 7,
			CreatedAt: at(i + 10), UpdatedAt: at(i), HTMLURL: fmt.Sprintf("%s/issues/%d", web, n),
		}
		if i%5 != 4 {
			it.Assignees = []GitHubUser{user(i + 1)}
		}
		if i%3 == 0 {
			t, reason := at(i), "completed"
			it.State, it.ClosedAt, it.StateReason = "closed", &t, &reason
		}
		repo.Issues = append(repo.Issues, it)
	}
	return repo
}

// generateGitHubMilestones makes v1.0 (closed), v1.1 and v2.0 (open).
func generateGitHubMilestones(web string, start time.Time) []GitHubMilestone {
	var out []GitHubMilestone
	for i, title := range []string{"v1.0", "v1.1", "v2.0"} {
		state := "open"
		if i == 0 {
			state = "closed"
		}
		at := start.AddDate(0, -3+i, 0)
		out = append(out, GitHubMilestone{ID: int64(500 + i), Number: i + 1, Title: title, Description: "Work for " + title,
			State: state, HTMLURL: fmt.Sprintf("%s/milestone/%d", web, i+1), CreatedAt: at, UpdatedAt: at})
	}
	return out
}

// GenerateGitHubHistory builds commits (one every 3 hours back from
// 2024-03-31 12:00 UTC, each touching one area) and releases (one every
// ten days, every fifth a prerelease, the newest a draft).
func GenerateGitHubHistory(owner, name string, commits, releases int) ([]GitHubCommit, []GitHubRelease) {
	web := "https://github.com/" + owner + "/" + name
	start := time.Date(2024, 3, 31, 12, 0, 0, 0, time.UTC)
	areas := []string{"payments", "auth", "search", "docs"}
	var cs []GitHubCommit
	for i := range commits {
		login := githubPeople[i%len(githubPeople)]
		at := start.Add(-time.Duration(i) * 3 * time.Hour)
		sha := fakeSHA("ghcommit", i)
		who := GitHubGitAuthor{Name: strings.ToUpper(login[:1]) + login[1:], Email: login + "@example.com", Date: at}
		c := GitHubCommit{
			SHA: sha, HTMLURL: web + "/commit/" + sha,
			Commit: GitHubGitCommit{Author: who, Committer: who, Message: fmt.Sprintf("%s: change %d\n\nDetails of change %d.", areas[i%len(areas)], commits-i, commits-i)},
			Author: &GitHubUser{Login: login, ID: int64(100 + i%len(githubPeople)), Type: "User"},
			Paths:  []string{areas[i%len(areas)] + "/file.go"}, Branches: []string{"main"},
		}
		if i+1 < commits {
			c.Parents = []GitHubParent{{SHA: fakeSHA("ghcommit", i+1)}}
		}
		if i%5 == 0 {
			c.Author = nil // an e-mail GitHub cannot map to an account
		}
		cs = append(cs, c)
	}
	var rs []GitHubRelease
	for i := range releases {
		created := start.Add(-time.Duration(i) * 240 * time.Hour)
		tag := fmt.Sprintf("v1.%d.0", releases-i)
		r := GitHubRelease{ID: int64(7000 + releases - i), TagName: tag, TargetCommitish: "main", Name: "Release " + tag,
			Body: "Changes in " + tag + ".", Prerelease: i%5 == 4, CreatedAt: created, PublishedAt: &created,
			Author: GitHubUser{Login: githubPeople[i%len(githubPeople)], Type: "User"}, HTMLURL: web + "/releases/tag/" + tag}
		if i == 0 {
			r.Draft, r.PublishedAt = true, nil
		}
		rs = append(rs, r)
	}
	return cs, rs
}

// GenerateGitHubRuns builds workflow runs, one every 3 hours back from
// 2024-03-31 12:00 UTC, on main and release alternately; every fifth is in
// progress, the others concluded success, failure or cancelled in turn.
func GenerateGitHubRuns(owner, name string, n int) []GitHubWorkflowRun {
	start := time.Date(2024, 3, 31, 12, 0, 0, 0, time.UTC)
	var runs []GitHubWorkflowRun
	for i := range n {
		id := int64(800000 + n - i)
		at := start.Add(-time.Duration(i) * 3 * time.Hour)
		run := GitHubWorkflowRun{ID: id, Name: "CI", HeadBranch: []string{"main", "release"}[i%2], HeadSHA: fakeSHA("run", int(id)),
			RunNumber: n - i, Event: []string{"push", "pull_request"}[i%2], Status: "completed", WorkflowID: 42,
			HTMLURL: fmt.Sprintf("https://github.com/%s/%s/actions/runs/%d", owner, name, id), CreatedAt: at, UpdatedAt: at.Add(12 * time.Minute),
			Actor: GitHubUser{Login: githubPeople[i%len(githubPeople)], Type: "User"}}
		if i%5 == 4 {
			run.Status = "in_progress"
		} else {
			c := []string{"success", "failure", "cancelled"}[i%3]
			run.Conclusion = &c
		}
		runs = append(runs, run)
	}
	return runs
}

// ServeHTTP routes GET /repos/{owner}/{repo}/issues and /pulls, under
// /api/v3 when Enterprise is set.
func (g *GitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.log.add(r)
	token, authenticated := bearer(r.Header.Get("Authorization"))
	if ft, ok := g.faults.take(r.URL.RequestURI()); ok {
		ft.serve(w, token)
		return
	}
	if authenticated && token != g.Token {
		githubError(w, http.StatusUnauthorized, "Bad credentials", "https://docs.github.com/rest")
		return
	}
	limit := g.AnonymousLimit
	if authenticated {
		limit = g.Limit
	}
	path := r.URL.Path
	if g.Enterprise {
		var ok bool
		if path, ok = strings.CutPrefix(path, "/api/v3"); !ok {
			githubError(w, http.StatusNotFound, "Not Found", "https://docs.github.com/enterprise-server/rest")
			return
		}
	}
	res := g.route(r, path)
	etag := `W/"` + etagOf(res.body, res.link) + `"`
	notModified := res.status == http.StatusOK && slices.Contains(strings.Split(r.Header.Get("If-None-Match"), ", "), etag)
	var allowed bool
	if strings.HasPrefix(path, "/search/") {
		allowed = g.countSearch(w, authenticated)
	} else { // a 304 is free only to an authorized request, GitHub's docs say
		allowed = g.count(w, authenticated, limit, !notModified || !authenticated)
	}
	if !allowed {
		message := "API rate limit exceeded for user ID 1."
		if !authenticated {
			message = "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)"
		}
		githubError(w, http.StatusForbidden, message, "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-the-primary-rate-limit")
		return
	}
	switch {
	case res.status != http.StatusOK && res.detail != "":
		githubValidation(w, res.detail)
		return
	case res.status != http.StatusOK:
		githubError(w, res.status, res.message, "https://docs.github.com/rest/issues/issues#list-repository-issues")
		return
	}
	if res.link != "" {
		w.Header().Set("Link", res.link)
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "private, max-age=60, s-maxage=60")
	w.Header().Set("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
	if notModified {
		g.mu.Lock()
		g.notModified++
		g.mu.Unlock()
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write([]byte(res.body))
}

// bearer reads "Bearer T" or "token T"; ok is false without credentials.
func bearer(h string) (string, bool) {
	for _, scheme := range []string{"Bearer ", "token "} {
		if t, ok := strings.CutPrefix(h, scheme); ok {
			return t, true
		}
	}
	return "", false
}

// count sets the x-ratelimit-* headers and, when charge, uses one request;
// it reports false when the limit was already used up.
func (g *GitHub) count(w http.ResponseWriter, authenticated bool, limit int, charge bool) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.used == nil {
		g.used = map[bool]int{}
	}
	ok := g.used[authenticated] < limit
	if ok && charge {
		g.used[authenticated]++
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(limit-g.used[authenticated]))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(g.Reset.Unix(), 10))
	h.Set("X-RateLimit-Used", strconv.Itoa(g.used[authenticated]))
	h.Set("X-RateLimit-Resource", "core")
	return ok
}

// countSearch sets the x-ratelimit-* headers of the search resource and
// uses one of the window's searches, starting a new window once SearchReset
// has passed; it reports false when the window's searches are used up.
func (g *GitHub) countSearch(w http.ResponseWriter, authenticated bool) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if now := time.Now(); !now.Before(g.SearchReset) {
		g.SearchReset, g.searchUsed = now.Add(time.Minute).Truncate(time.Second), nil
	}
	if g.searchUsed == nil {
		g.searchUsed = map[bool]int{}
	}
	limit := g.AnonymousSearchLimit
	if authenticated {
		limit = g.SearchLimit
	}
	ok := g.searchUsed[authenticated] < limit
	if ok {
		g.searchUsed[authenticated]++
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(limit-g.searchUsed[authenticated]))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(g.SearchReset.Unix(), 10))
	h.Set("X-RateLimit-Used", strconv.Itoa(g.searchUsed[authenticated]))
	h.Set("X-RateLimit-Resource", "search")
	return ok
}

// NewSearchWindow starts a new search window ending at reset. Searches,
// 304s included, count against it: GitHub documents free 304s for the
// primary limit only.
func (g *GitHub) NewSearchWindow(reset time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.searchUsed, g.SearchReset = nil, reset
}

// NotModified returns how many requests were answered 304 Not Modified.
func (g *GitHub) NotModified() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.notModified
}

// Searches returns how many searches counted in the current window.
func (g *GitHub) Searches(authenticated bool) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.searchUsed[authenticated]
}

// githubResult is one routed answer: a page and its Link header, or an
// error (detail set for a 422's errors entry).
type githubResult struct {
	body, link      string
	status          int
	message, detail string
}

var githubNotFound = githubResult{status: http.StatusNotFound, message: "Not Found"}

// route answers one API path.
func (g *GitHub) route(r *http.Request, path string) githubResult {
	if r.Method == http.MethodGet && path == "/search/issues" {
		return g.searchIssues(r)
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if r.Method != http.MethodGet || len(parts) < 4 || parts[0] != "repos" || parts[1] != g.Repo.Owner || parts[2] != g.Repo.Name {
		return githubNotFound
	}
	q := r.URL.Query()
	switch strings.Join(parts[3:], "/") {
	case "issues":
		return githubPage(r, filterGitHubIssues(g.Repo.Issues, q), nil)
	case "pulls":
		return githubPage(r, filterGitHubPulls(g.Repo.PullRequests, q), nil)
	case "commits":
		return githubPage(r, filterGitHubCommits(g.Repo.Commits, q), nil)
	case "releases":
		return githubPage(r, g.Repo.Releases, nil)
	case "milestones":
		var ms []GitHubMilestone
		for _, m := range g.Repo.Milestones {
			if keepState(m.State, q.Get("state")) {
				ms = append(ms, m)
			}
		}
		return githubPage(r, ms, nil)
	case "actions/runs":
		runs := filterGitHubRuns(g.Repo.Runs, q)
		return githubPage(r, runs, func(page []GitHubWorkflowRun) any {
			return map[string]any{"total_count": len(runs), "workflow_runs": page}
		})
	}
	return githubNotFound
}

// githubValidation writes GitHub's 422 body: "Validation Failed" with one
// entry in errors.
func githubValidation(w http.ResponseWriter, detail string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusUnprocessableEntity)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"message":           "Validation Failed",
		"errors":            []map[string]string{{"message": detail, "resource": "Search", "field": "q", "code": "invalid"}},
		"documentation_url": "https://docs.github.com/rest/search/search#search-issues-and-pull-requests",
		"status":            "422",
	})
}

// githubError writes GitHub's error body: message, documentation_url and the status as a string.
func githubError(w http.ResponseWriter, status int, message, docs string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": message, "documentation_url": docs, "status": strconv.Itoa(status)})
}

func etagOf(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\n")))
	return hex.EncodeToString(sum[:16])
}

// githubPage encodes one page (per_page default 30, at most 100) and sets
// the Link header with next, prev, first and last as GitHub does.
// wrap, when set, puts the page in the envelope the endpoint sends.
func githubPage[T any](r *http.Request, items []T, wrap func([]T) any) githubResult {
	q := r.URL.Query()
	perPage := min(max(atoiOr(q.Get("per_page"), 30), 1), 100)
	n := max(atoiOr(q.Get("page"), 1), 1)
	from := min((n-1)*perPage, len(items))
	to := min(from+perPage, len(items))
	last := max((len(items)+perPage-1)/perPage, 1)
	link := func(p int, rel string) string {
		u := *r.URL
		v := u.Query()
		v.Set("page", strconv.Itoa(p))
		u.RawQuery = v.Encode()
		return fmt.Sprintf(`<http://%s%s>; rel="%s"`, r.Host, u.RequestURI(), rel)
	}
	var links []string
	if n < last {
		links = append(links, link(n+1, "next"), link(last, "last"))
	}
	if n > 1 {
		links = append(links, link(1, "first"), link(n-1, "prev"))
	}
	var page any = items[from:to]
	if wrap != nil {
		page = wrap(items[from:to])
	}
	body, _ := json.Marshal(page)
	return githubResult{body: string(body), link: strings.Join(links, ", "), status: http.StatusOK}
}

// filterGitHubIssues applies /issues' state (default open), creator,
// assignee and milestone (a login or number, "none" or "*"), labels (all
// must match), since (updated at or after) and sort.
func filterGitHubIssues(all []GitHubIssue, q url.Values) []GitHubIssue {
	since, _ := time.Parse(time.RFC3339, q.Get("since"))
	var out []GitHubIssue
	for _, it := range all {
		names := make([]string, len(it.Labels))
		for i, l := range it.Labels {
			names[i] = l.Name
		}
		if keepState(it.State, q.Get("state")) && (q.Get("creator") == "" || q.Get("creator") == it.User.Login) &&
			keepOne(len(it.Assignees) > 0, q.Get("assignee"), func(v string) bool {
				return slices.ContainsFunc(it.Assignees, func(a GitHubUser) bool { return a.Login == v })
			}) &&
			keepOne(it.Milestone != nil, q.Get("milestone"), func(v string) bool { return strconv.Itoa(it.Milestone.Number) == v }) &&
			hasLabels(names, q.Get("labels")) && !it.UpdatedAt.Before(since) {
			out = append(out, it)
		}
	}
	sortByTime(out, q.Get("sort"), func(it GitHubIssue) (time.Time, time.Time) { return it.CreatedAt, it.UpdatedAt })
	return out
}

// filterGitHubPulls applies /pulls' state (default open), base and sort.
func filterGitHubPulls(all []GitHubPullRequest, q url.Values) []GitHubPullRequest {
	var out []GitHubPullRequest
	for _, pr := range all {
		if keepState(pr.State, q.Get("state")) && (q.Get("base") == "" || q.Get("base") == pr.Base.Ref) {
			out = append(out, pr)
		}
	}
	sortByTime(out, q.Get("sort"), func(pr GitHubPullRequest) (time.Time, time.Time) { return pr.CreatedAt, pr.UpdatedAt })
	return out
}

// filterGitHubCommits applies /commits' sha (a branch), path, author
// (login or e-mail), since and until (the commit date).
func filterGitHubCommits(all []GitHubCommit, q url.Values) []GitHubCommit {
	since, _ := time.Parse(time.RFC3339, q.Get("since"))
	until, _ := time.Parse(time.RFC3339, q.Get("until"))
	path := strings.TrimSuffix(q.Get("path"), "/")
	var out []GitHubCommit
	for _, c := range all {
		login := ""
		if c.Author != nil {
			login = c.Author.Login
		}
		date := c.Commit.Committer.Date
		switch {
		case q.Get("sha") != "" && !slices.Contains(c.Branches, q.Get("sha")),
			path != "" && !slices.ContainsFunc(c.Paths, func(p string) bool { return p == path || strings.HasPrefix(p, path+"/") }),
			q.Get("author") != "" && q.Get("author") != login && q.Get("author") != c.Commit.Author.Email,
			!since.IsZero() && date.Before(since),
			!until.IsZero() && date.After(until):
			continue
		}
		out = append(out, c)
	}
	return out
}

// filterGitHubRuns applies /actions/runs' status (a status or a
// conclusion), branch, actor, event and created ("a..b", ">=a", "<=b").
func filterGitHubRuns(all []GitHubWorkflowRun, q url.Values) []GitHubWorkflowRun {
	var after, before time.Time
	switch created := q.Get("created"); {
	case strings.Contains(created, ".."):
		a, b, _ := strings.Cut(created, "..")
		after, _ = time.Parse(time.RFC3339, a)
		before, _ = time.Parse(time.RFC3339, b)
	case strings.HasPrefix(created, ">="):
		after, _ = time.Parse(time.RFC3339, created[2:])
	case strings.HasPrefix(created, "<="):
		before, _ = time.Parse(time.RFC3339, created[2:])
	}
	var out []GitHubWorkflowRun
	for _, run := range all {
		conclusion := ""
		if run.Conclusion != nil {
			conclusion = *run.Conclusion
		}
		status := q.Get("status")
		switch {
		case status != "" && status != run.Status && status != conclusion,
			q.Get("branch") != "" && q.Get("branch") != run.HeadBranch,
			q.Get("actor") != "" && q.Get("actor") != run.Actor.Login,
			q.Get("event") != "" && q.Get("event") != run.Event,
			!after.IsZero() && run.CreatedAt.Before(after),
			!before.IsZero() && run.CreatedAt.After(before):
			continue
		}
		out = append(out, run)
	}
	return out
}

func keepState(state, want string) bool {
	return want == "all" || state == want || (want == "" && state == "open")
}

// keepOne applies an /issues filter that takes one value: "" keeps all,
// "none" items without one, "*" items with any, else those is accepts.
func keepOne(has bool, want string, is func(string) bool) bool {
	switch want {
	case "":
		return true
	case "none":
		return !has
	case "*":
		return has
	}
	return has && is(want)
}

func hasLabels(have []string, want string) bool {
	for l := range strings.SplitSeq(want, ",") {
		if l != "" && !slices.Contains(have, l) {
			return false
		}
	}
	return true
}

// sortByTime orders newest first by "created" (the default) or "updated".
func sortByTime[T any](items []T, field string, times func(T) (created, updated time.Time)) {
	slices.SortStableFunc(items, func(a, b T) int {
		ca, ua := times(a)
		cb, ub := times(b)
		if field == "updated" {
			return ub.Compare(ua)
		}
		return cb.Compare(ca)
	})
}

// githubSearchItem is an item of GET /search/issues: the issue with its score.
type githubSearchItem struct {
	GitHubIssue
	Score float64 `json:"score"`
}

// Limits of GET /search/issues, as GitHub documents them.
const (
	githubSearchText      = 256  // characters of q besides qualifiers and operators
	githubSearchOperators = 5    // AND, OR, NOT
	githubSearchResults   = 1000 // results any search returns
)

// searchIssues answers GET /search/issues: q's qualifiers repo, is (pr,
// issue, open, closed, merged, unmerged), author, assignee, label,
// milestone, base, no (assignee, milestone, label) and the created,
// updated, merged and closed ranges (a..b, >=a, <=b, >a, <a), all of them
// ANDed; sort created or updated (else best match, here updated), order
// desc (default) or asc; pages of per_page up to the first 1,000 results,
// total_count saying how many matched. A q past 256 characters (qualifiers
// aside) or with more than five AND/OR/NOT, a qualifier the fake does not
// know, a repository other than its own and pages past the 1,000th result
// are answered 422 as GitHub does.
func (g *GitHub) searchIssues(r *http.Request) githubResult {
	q := r.URL.Query()
	var text []string
	operators := 0
	var keep []func(GitHubIssue) bool
	for _, tok := range searchTokens(q.Get("q")) {
		key, value, isQualifier := strings.Cut(tok, ":")
		if !isQualifier {
			if tok == "AND" || tok == "OR" || tok == "NOT" {
				operators++
			} else {
				text = append(text, tok)
			}
			continue
		}
		value = strings.Trim(value, `"`)
		match, ok := g.searchQualifier(key, value)
		if !ok {
			return githubResult{status: http.StatusUnprocessableEntity, detail: fmt.Sprintf("The qualifier %q is not supported by this fake.", tok)}
		}
		keep = append(keep, match)
	}
	switch {
	case len(strings.Join(text, " ")) > githubSearchText:
		return githubResult{status: http.StatusUnprocessableEntity, detail: "The search is longer than 256 characters."}
	case operators > githubSearchOperators:
		return githubResult{status: http.StatusUnprocessableEntity, detail: "The search contains more than 5 AND / OR / NOT operators."}
	case len(text) > 0:
		return githubResult{status: http.StatusUnprocessableEntity, detail: "Free-text search is not supported by this fake."}
	}
	perPage := min(max(atoiOr(q.Get("per_page"), 30), 1), 100)
	if max(atoiOr(q.Get("page"), 1), 1)*perPage > githubSearchResults+perPage-1 {
		return githubResult{status: http.StatusUnprocessableEntity, detail: "Only the first 1000 search results are available"}
	}
	var found []githubSearchItem
	for _, it := range g.Repo.Issues {
		if !slices.ContainsFunc(keep, func(k func(GitHubIssue) bool) bool { return !k(it) }) {
			found = append(found, githubSearchItem{GitHubIssue: it, Score: 1})
		}
	}
	sortByTime(found, cmp.Or(q.Get("sort"), "updated"), func(it githubSearchItem) (time.Time, time.Time) { return it.CreatedAt, it.UpdatedAt })
	if q.Get("order") == "asc" {
		slices.Reverse(found)
	}
	total := len(found)
	return githubPage(r, found[:min(total, githubSearchResults)], func(page []githubSearchItem) any {
		return map[string]any{"total_count": total, "incomplete_results": g.IncompleteResults, "items": page}
	})
}

// searchQualifier is the test one qualifier puts on issues; ok is false
// for a qualifier the fake does not know.
func (g *GitHub) searchQualifier(key, value string) (match func(GitHubIssue) bool, ok bool) {
	logins := func(us []GitHubUser) []string {
		var out []string
		for _, u := range us {
			out = append(out, u.Login)
		}
		return out
	}
	pull := func(it GitHubIssue) *GitHubPullRequest {
		i := slices.IndexFunc(g.Repo.PullRequests, func(pr GitHubPullRequest) bool { return pr.Number == it.Number })
		if i < 0 {
			return nil
		}
		return &g.Repo.PullRequests[i]
	}
	merged := func(it GitHubIssue) *time.Time {
		if it.PullRequest == nil {
			return nil
		}
		return it.PullRequest.MergedAt
	}
	switch key {
	case "repo":
		return func(GitHubIssue) bool { return value == g.Repo.Owner+"/"+g.Repo.Name }, true
	case "is":
		return map[string]func(GitHubIssue) bool{
			"pr":       func(it GitHubIssue) bool { return it.PullRequest != nil },
			"issue":    func(it GitHubIssue) bool { return it.PullRequest == nil },
			"open":     func(it GitHubIssue) bool { return it.State == "open" },
			"closed":   func(it GitHubIssue) bool { return it.State == "closed" },
			"merged":   func(it GitHubIssue) bool { return merged(it) != nil },
			"unmerged": func(it GitHubIssue) bool { return it.PullRequest != nil && merged(it) == nil },
		}[value], slices.Contains([]string{"pr", "issue", "open", "closed", "merged", "unmerged"}, value)
	case "author":
		return func(it GitHubIssue) bool { return strings.EqualFold(it.User.Login, value) }, true
	case "assignee":
		return func(it GitHubIssue) bool { return slices.Contains(logins(it.Assignees), value) }, true
	case "label":
		return func(it GitHubIssue) bool {
			return slices.ContainsFunc(it.Labels, func(l GitHubLabel) bool { return strings.EqualFold(l.Name, value) })
		}, true
	case "milestone":
		return func(it GitHubIssue) bool { return it.Milestone != nil && it.Milestone.Title == value }, true
	case "base":
		return func(it GitHubIssue) bool { pr := pull(it); return pr != nil && pr.Base.Ref == value }, true
	case "no":
		return map[string]func(GitHubIssue) bool{
			"assignee":  func(it GitHubIssue) bool { return len(it.Assignees) == 0 },
			"milestone": func(it GitHubIssue) bool { return it.Milestone == nil },
			"label":     func(it GitHubIssue) bool { return len(it.Labels) == 0 },
		}[value], slices.Contains([]string{"assignee", "milestone", "label"}, value)
	case "created", "updated", "merged", "closed":
		in, ok := searchRange(value)
		return func(it GitHubIssue) bool {
			t := map[string]*time.Time{"created": &it.CreatedAt, "updated": &it.UpdatedAt, "merged": merged(it), "closed": it.ClosedAt}[key]
			return t != nil && in(*t)
		}, ok
	}
	return nil, false
}

// searchRange reads a date qualifier's value: a..b, >=a, <=b, >a, <a or a
// day, with RFC 3339 times or dates.
func searchRange(v string) (func(time.Time) bool, bool) {
	parse := func(s string) (time.Time, bool) {
		for _, layout := range []string{time.RFC3339, "2006-01-02"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t, true
			}
		}
		return time.Time{}, false
	}
	if a, b, ok := strings.Cut(v, ".."); ok {
		from, ok1 := parse(a)
		to, ok2 := parse(b)
		return func(t time.Time) bool { return !t.Before(from) && !t.After(to) }, ok1 && ok2
	}
	for _, op := range []string{">=", "<=", ">", "<"} {
		if rest, ok := strings.CutPrefix(v, op); ok {
			at, ok := parse(rest)
			return func(t time.Time) bool {
				c := t.Compare(at)
				return map[string]bool{">=": c >= 0, "<=": c <= 0, ">": c > 0, "<": c < 0}[op]
			}, ok
		}
	}
	day, ok := parse(v)
	return func(t time.Time) bool { return !t.Before(day) && t.Before(day.AddDate(0, 0, 1)) }, ok
}

// searchTokens splits q at spaces outside double quotes.
func searchTokens(q string) []string {
	var out []string
	start, inQuote := 0, false
	for i := 0; i <= len(q); i++ {
		switch {
		case i < len(q) && q[i] == '"':
			inQuote = !inQuote
		case i == len(q) || (q[i] == ' ' && !inQuote):
			if i > start {
				out = append(out, q[start:i])
			}
			start = i + 1
		}
	}
	return out
}
