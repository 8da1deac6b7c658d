package fakes

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// GitLab is a fake GitLab REST v4 server for one project with generated
// commits, issues, merge requests, pipelines and releases. Serve it with
// httptest.NewServer(g) and point the client at the server's URL.
type GitLab struct {
	Token   string // accepted as PRIVATE-TOKEN or as an OAuth bearer token
	Project GitLabProject

	faults faults
	log    requestLog
}

// GitLabProject is the one project the fake knows, reachable by ID or path.
type GitLabProject struct {
	ID            int64
	Path          string // e.g. "group/sub/app"
	Commits       []GitLabCommit
	Issues        []GitLabIssue
	MergeRequests []GitLabMergeRequest
	Pipelines     []GitLabPipeline
	Tags          []GitLabTag
	Releases      []GitLabRelease
}

// GitLabCommit is a commit as GET /projects/:id/repository/commits returns
// it (stats only with with_stats=true); Paths and Refs drive the filters.
type GitLabCommit struct {
	ID             string            `json:"id"`
	ShortID        string            `json:"short_id"`
	CreatedAt      time.Time         `json:"created_at"`
	ParentIDs      []string          `json:"parent_ids"`
	Title          string            `json:"title"`
	Message        string            `json:"message"`
	AuthorName     string            `json:"author_name"`
	AuthorEmail    string            `json:"author_email"`
	AuthoredDate   time.Time         `json:"authored_date"`
	CommitterName  string            `json:"committer_name"`
	CommitterEmail string            `json:"committer_email"`
	CommittedDate  time.Time         `json:"committed_date"`
	Trailers       map[string]string `json:"trailers"`
	WebURL         string            `json:"web_url"`
	Stats          *GitLabStats      `json:"stats,omitempty"`
	Paths          []string          `json:"-"`
	Refs           []string          `json:"-"`
}

// GitLabStats is a commit's line counts.
type GitLabStats struct {
	Additions int64 `json:"additions"`
	Deletions int64 `json:"deletions"`
	Total     int64 `json:"total"`
}

// GitLabUser is the user shape embedded in issues and merge requests.
type GitLabUser struct {
	ID        int64  `json:"id"`
	Username  string `json:"username"`
	Name      string `json:"name"`
	State     string `json:"state"`
	AvatarURL string `json:"avatar_url"`
	WebURL    string `json:"web_url"`
}

// GitLabReferences are an issuable's short, relative and full references.
type GitLabReferences struct {
	Short    string `json:"short"`
	Relative string `json:"relative"`
	Full     string `json:"full"`
}

// GitLabIssue is an issue as GET /projects/:id/issues returns it.
type GitLabIssue struct {
	ID             int64            `json:"id"`
	IID            int64            `json:"iid"`
	ProjectID      int64            `json:"project_id"`
	Title          string           `json:"title"`
	Description    string           `json:"description"`
	State          string           `json:"state"`
	CreatedAt      time.Time        `json:"created_at"`
	UpdatedAt      time.Time        `json:"updated_at"`
	ClosedAt       *time.Time       `json:"closed_at"`
	Labels         []string         `json:"labels"`
	Milestone      any              `json:"milestone"`
	Assignees      []GitLabUser     `json:"assignees"`
	Author         GitLabUser       `json:"author"`
	Type           string           `json:"type"`
	UserNotesCount int64            `json:"user_notes_count"`
	Upvotes        int64            `json:"upvotes"`
	Downvotes      int64            `json:"downvotes"`
	Confidential   bool             `json:"confidential"`
	IssueType      string           `json:"issue_type"`
	WebURL         string           `json:"web_url"`
	References     GitLabReferences `json:"references"`
}

// GitLabMergeRequest is a merge request as GET /projects/:id/merge_requests returns it.
type GitLabMergeRequest struct {
	ID                  int64            `json:"id"`
	IID                 int64            `json:"iid"`
	ProjectID           int64            `json:"project_id"`
	Title               string           `json:"title"`
	Description         string           `json:"description"`
	State               string           `json:"state"`
	CreatedAt           time.Time        `json:"created_at"`
	UpdatedAt           time.Time        `json:"updated_at"`
	MergedAt            *time.Time       `json:"merged_at"`
	ClosedAt            *time.Time       `json:"closed_at"`
	TargetBranch        string           `json:"target_branch"`
	SourceBranch        string           `json:"source_branch"`
	UserNotesCount      int64            `json:"user_notes_count"`
	Author              GitLabUser       `json:"author"`
	Reviewers           []GitLabUser     `json:"reviewers"`
	Labels              []string         `json:"labels"`
	Draft               bool             `json:"draft"`
	DetailedMergeStatus string           `json:"detailed_merge_status"`
	SHA                 string           `json:"sha"`
	MergeCommitSHA      *string          `json:"merge_commit_sha"`
	Reference           string           `json:"reference"`
	References          GitLabReferences `json:"references"`
	WebURL              string           `json:"web_url"`
}

// GitLabPipeline is a pipeline as GET /projects/:id/pipelines returns it.
type GitLabPipeline struct {
	ID        int64     `json:"id"`
	IID       int64     `json:"iid"`
	ProjectID int64     `json:"project_id"`
	Status    string    `json:"status"`
	Source    string    `json:"source"`
	Ref       string    `json:"ref"`
	SHA       string    `json:"sha"`
	Name      string    `json:"name"`
	WebURL    string    `json:"web_url"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	Username  string    `json:"-"`
}

// NewGitLab returns a fake with a generated project: 250 commits, 130
// issues, 60 merge requests, 80 pipelines and 130 releases, newest first,
// all deterministic.
func NewGitLab(token string) *GitLab {
	p := GenerateGitLabProject(42, "group/sub/app", 250, 130, 60, 80)
	p.Releases = GenerateGitLabReleases(p, 130)
	return &GitLab{Token: token, Project: p}
}

// Fail scripts a failure for upcoming requests.
func (g *GitLab) Fail(f Fault) { g.faults.add(f) }

// Requests returns the raw request URIs seen so far (path escaped as sent).
func (g *GitLab) Requests() []string { return g.log.all() }

var gitlabPeople = []GitLabUser{
	{ID: 1, Username: "alice", Name: "Alice Liddell", State: "active"},
	{ID: 2, Username: "bob", Name: "Bob Builder", State: "active"},
	{ID: 3, Username: "carol", Name: "Carol Danvers", State: "active"},
	{ID: 4, Username: "dmitri", Name: "Dmitri Mendeleev", State: "active"},
}

// GenerateGitLabProject builds a project's data deterministically: item i
// is 3 hours older than item i-1, starting from 2024-03-31 12:00 UTC.
func GenerateGitLabProject(id int64, path string, commits, issues, mrs, pipelines int) GitLabProject {
	web := "https://gitlab.example.com/" + path
	start := time.Date(2024, 3, 31, 12, 0, 0, 0, time.UTC)
	at := func(i int) time.Time { return start.Add(-time.Duration(i) * 3 * time.Hour) }
	p := GitLabProject{ID: id, Path: path}
	areas := []string{"payments", "auth", "search", "docs"}
	for i := range commits {
		u := gitlabPeople[i%len(gitlabPeople)]
		sha := fakeSHA("commit", i)
		area := areas[i%len(areas)]
		title := fmt.Sprintf("%s: change %d", area, commits-i)
		c := GitLabCommit{
			ID: sha, ShortID: sha[:8], CreatedAt: at(i), Title: title,
			Message:    title + "\n\nDetails of change " + strconv.Itoa(commits-i) + " in " + area + ".\n",
			AuthorName: u.Name, AuthorEmail: u.Username + "@example.com", AuthoredDate: at(i),
			CommitterName: u.Name, CommitterEmail: u.Username + "@example.com", CommittedDate: at(i),
			Trailers: map[string]string{}, WebURL: web + "/-/commit/" + sha,
			Stats: &GitLabStats{Additions: int64(i%17 + 1), Deletions: int64(i % 5), Total: int64(i%17 + 1 + i%5)},
			Paths: []string{area + "/file" + strconv.Itoa(i%3) + ".go"},
			Refs:  []string{"main"},
		}
		if i > 0 {
			c.ParentIDs = []string{fakeSHA("commit", i-1)}
		}
		if i%4 == 0 {
			c.Refs = append(c.Refs, "release")
		}
		p.Commits = append(p.Commits, c)
	}
	for i := range issues {
		iid := int64(issues - i)
		u := gitlabPeople[i%len(gitlabPeople)]
		it := GitLabIssue{
			ID: 1000 + iid, IID: iid, ProjectID: id,
			Title:       fmt.Sprintf("%s bug %d", areas[i%len(areas)], iid),
			Description: fmt.Sprintf("Steps to reproduce issue %d.", iid),
			State:       "opened", CreatedAt: at(i + 10), UpdatedAt: at(i),
			Labels: []string{"bug", areas[i%len(areas)]}, Assignees: []GitLabUser{gitlabPeople[(i+1)%len(gitlabPeople)]},
			Author: u, Type: "ISSUE", IssueType: "issue", UserNotesCount: int64(i % 7),
			WebURL:     fmt.Sprintf("%s/-/issues/%d", web, iid),
			References: GitLabReferences{Short: fmt.Sprintf("#%d", iid), Relative: fmt.Sprintf("#%d", iid), Full: fmt.Sprintf("%s#%d", path, iid)},
		}
		if i%3 == 0 {
			closed := at(i)
			it.State, it.ClosedAt = "closed", &closed
		}
		p.Issues = append(p.Issues, it)
	}
	for i := range mrs {
		iid := int64(mrs - i)
		u := gitlabPeople[(i+2)%len(gitlabPeople)]
		mr := GitLabMergeRequest{
			ID: 5000 + iid, IID: iid, ProjectID: id,
			Title:       fmt.Sprintf("Improve %s (%d)", areas[i%len(areas)], iid),
			Description: "Closes #" + strconv.FormatInt(iid, 10),
			State:       []string{"opened", "merged", "closed"}[i%3], CreatedAt: at(i + 5), UpdatedAt: at(i),
			TargetBranch: "main", SourceBranch: fmt.Sprintf("feature-%d", iid), Author: u,
			Reviewers: []GitLabUser{gitlabPeople[i%len(gitlabPeople)]}, Labels: []string{areas[i%len(areas)]},
			DetailedMergeStatus: "mergeable", SHA: fakeSHA("mr", int(iid)),
			Reference: "!" + strconv.FormatInt(iid, 10), WebURL: fmt.Sprintf("%s/-/merge_requests/%d", web, iid),
			References: GitLabReferences{Short: fmt.Sprintf("!%d", iid), Relative: fmt.Sprintf("!%d", iid), Full: fmt.Sprintf("%s!%d", path, iid)},
		}
		if mr.State == "merged" {
			t, sha := at(i), fakeSHA("merge", int(iid))
			mr.MergedAt, mr.MergeCommitSHA = &t, &sha
		}
		p.MergeRequests = append(p.MergeRequests, mr)
	}
	for i := range pipelines {
		pid := int64(90000 + pipelines - i)
		p.Pipelines = append(p.Pipelines, GitLabPipeline{
			ID: pid, IID: int64(pipelines - i), ProjectID: id,
			Status: []string{"success", "failed", "running", "success", "canceled"}[i%5],
			Source: "push", Ref: []string{"main", "release"}[i%2], SHA: fakeSHA("pipeline", int(pid)),
			WebURL: fmt.Sprintf("%s/-/pipelines/%d", web, pid), CreatedAt: at(i), UpdatedAt: at(i).Add(20 * time.Minute),
			Username: gitlabPeople[i%len(gitlabPeople)].Username,
		})
	}
	p.Tags = generateTags(p.Commits)
	return p
}

// fakeSHA is a deterministic, realistic-looking 40-hex-digit object ID.
func fakeSHA(kind string, i int) string {
	sum := sha1.Sum([]byte(kind + strconv.Itoa(i)))
	return hex.EncodeToString(sum[:])
}

// ServeHTTP routes /api/v4/projects/:id and its repository/commits,
// repository/tags/:name, repository/branches/:name, issues, merge_requests,
// pipelines and releases.
func (g *GitLab) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.log.add(r)
	token := r.Header.Get("PRIVATE-TOKEN")
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		token = bearer
	}
	if ft, ok := g.faults.take(r.URL.RequestURI()); ok {
		ft.serve(w, token)
		return
	}
	if token != g.Token {
		gitlabError(w, http.StatusUnauthorized, `{"message":"401 Unauthorized"}`)
		return
	}
	// The project ID segment arrives URL-encoded (group%2Fsub%2Fapp), so
	// route on the escaped path and unescape only that segment.
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/api/v4/projects/")
	if !ok || r.Method != http.MethodGet {
		gitlabError(w, http.StatusNotFound, `{"error":"404 Not Found"}`)
		return
	}
	rawID, resource, _ := strings.Cut(rest, "/")
	id, err := url.PathUnescape(rawID)
	if err != nil || (id != g.Project.Path && id != strconv.FormatInt(g.Project.ID, 10)) {
		gitlabError(w, http.StatusNotFound, `{"message":"404 Project Not Found"}`)
		return
	}
	q := r.URL.Query()
	if g.serveRef(w, resource) {
		return
	}
	switch resource {
	case "":
		g.serveProject(w)
	case "repository/commits":
		// Asking for trailers makes GitLab send extended_trailers arrays.
		if q.Get("trailers") == "true" {
			gitlabError(w, http.StatusBadRequest, `{"error":"fake: trailers=true was sent; clients must not ask for it"}`)
			return
		}
		page(w, r, filterCommits(g.Project.Commits, q), false)
	case "issues":
		page(w, r, filterIssues(g.Project.Issues, q), true)
	case "merge_requests":
		page(w, r, filterMergeRequests(g.Project.MergeRequests, q), true)
	case "pipelines":
		page(w, r, filterPipelines(g.Project.Pipelines, q), true)
	case "releases":
		g.serveReleases(w, r)
	default:
		gitlabError(w, http.StatusNotFound, `{"error":"404 Not Found"}`)
	}
}

func gitlabError(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// page writes one offset page with GitLab's pagination headers. withTotal
// false mimics the commits endpoint, which omits X-Total and X-Total-Pages.
func page[T any](w http.ResponseWriter, r *http.Request, items []T, withTotal bool) {
	q := r.URL.Query()
	perPage := atoiOr(q.Get("per_page"), 20)
	perPage = min(max(perPage, 1), 100)
	n := max(atoiOr(q.Get("page"), 1), 1)
	from := min((n-1)*perPage, len(items))
	to := min(from+perPage, len(items))
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Page", strconv.Itoa(n))
	h.Set("X-Per-Page", strconv.Itoa(perPage))
	h.Set("X-Next-Page", "")
	h.Set("X-Prev-Page", "")
	link := func(p int, rel string) string {
		u := *r.URL
		v := u.Query()
		v.Set("page", strconv.Itoa(p))
		u.RawQuery = v.Encode()
		return fmt.Sprintf(`<http://%s%s>; rel="%s"`, r.Host, u.RequestURI(), rel)
	}
	var links []string
	if n > 1 {
		h.Set("X-Prev-Page", strconv.Itoa(n-1))
		links = append(links, link(n-1, "prev"))
	}
	if to < len(items) {
		h.Set("X-Next-Page", strconv.Itoa(n+1))
		links = append(links, link(n+1, "next"))
	}
	links = append(links, link(1, "first"))
	if withTotal {
		pages := max((len(items)+perPage-1)/perPage, 1)
		h.Set("X-Total", strconv.Itoa(len(items)))
		h.Set("X-Total-Pages", strconv.Itoa(pages))
		links = append(links, link(pages, "last"))
	}
	h.Set("Link", strings.Join(links, ", "))
	_ = json.NewEncoder(w).Encode(items[from:to])
}

func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

// inRange applies the API's after/before bounds (ISO 8601) to t.
func inRange(t time.Time, after, before string) bool {
	if a, err := time.Parse(time.RFC3339, after); err == nil && t.Before(a) {
		return false
	}
	if b, err := time.Parse(time.RFC3339, before); err == nil && t.After(b) {
		return false
	}
	return true
}

func filterCommits(all []GitLabCommit, q url.Values) []GitLabCommit {
	var out []GitLabCommit
	author, ref, path := strings.ToLower(q.Get("author")), q.Get("ref_name"), q.Get("path")
	for _, c := range all {
		if !inRange(c.CommittedDate, q.Get("since"), q.Get("until")) ||
			(author != "" && !strings.Contains(strings.ToLower(c.AuthorName+" "+c.AuthorEmail), author)) ||
			(ref != "" && !slices.Contains(c.Refs, ref)) ||
			(path != "" && !slices.ContainsFunc(c.Paths, func(p string) bool { return p == path || strings.HasPrefix(p, strings.TrimSuffix(path, "/")+"/") })) {
			continue
		}
		if q.Get("with_stats") != "true" {
			c.Stats = nil
		}
		out = append(out, c)
	}
	return out
}

// issuable holds what issues and merge requests are filtered on.
type issuable struct {
	state, author, text string
	labels              []string
	created, updated    time.Time
}

func keepIssuable(it issuable, q url.Values) bool {
	if s := q.Get("state"); s != "" && s != "all" && s != it.state {
		return false
	}
	if a := q.Get("author_username"); a != "" && a != it.author {
		return false
	}
	if l := q.Get("labels"); l != "" {
		for want := range strings.SplitSeq(l, ",") {
			if !slices.Contains(it.labels, want) {
				return false
			}
		}
	}
	if s := q.Get("search"); s != "" && !strings.Contains(strings.ToLower(it.text), strings.ToLower(s)) {
		return false
	}
	return inRange(it.created, q.Get("created_after"), q.Get("created_before")) &&
		inRange(it.updated, q.Get("updated_after"), q.Get("updated_before"))
}

func filterIssues(all []GitLabIssue, q url.Values) []GitLabIssue {
	var out []GitLabIssue
	for _, i := range all {
		if keepIssuable(issuable{i.State, i.Author.Username, i.Title + " " + i.Description, i.Labels, i.CreatedAt, i.UpdatedAt}, q) {
			out = append(out, i)
		}
	}
	return out
}

func filterMergeRequests(all []GitLabMergeRequest, q url.Values) []GitLabMergeRequest {
	var out []GitLabMergeRequest
	for _, m := range all {
		if tb := q.Get("target_branch"); tb != "" && tb != m.TargetBranch {
			continue
		}
		if keepIssuable(issuable{m.State, m.Author.Username, m.Title + " " + m.Description, m.Labels, m.CreatedAt, m.UpdatedAt}, q) {
			out = append(out, m)
		}
	}
	return out
}

func filterPipelines(all []GitLabPipeline, q url.Values) []GitLabPipeline {
	var out []GitLabPipeline
	for _, p := range all {
		if (q.Get("status") != "" && q.Get("status") != p.Status) ||
			(q.Get("ref") != "" && q.Get("ref") != p.Ref) ||
			(q.Get("username") != "" && q.Get("username") != p.Username) ||
			!inRange(p.CreatedAt, q.Get("created_after"), q.Get("created_before")) ||
			!inRange(p.UpdatedAt, q.Get("updated_after"), q.Get("updated_before")) {
			continue
		}
		out = append(out, p)
	}
	return out
}
