package github

import (
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/plugins/internal/filter"
	"github.com/nous-dev/nous/sdk"
)

// Filters lists the filter keys the github source understands.
var Filters = []string{"projects", "statuses", "authors", "labels", "ref", "path", "paths", "date_field"}

// query is a FetchRequest checked and normalised for one record kind.
type query struct {
	kind      string
	repos     []string
	states    []string // what the user asked: open, closed, merged; none means all
	authors   []string
	labels    []string
	ref       string // pull requests' base branch; commits' branch
	path      string // commits touching it
	dateField string // "created" or "updated": which timestamp since/until bound
	since     time.Time
	until     time.Time
	limit     int
}

// scope is one listing: a repository, an API state (a run status for
// pipelines) and, for issues, commits and runs, one author: their APIs
// take one. Pull requests and releases filter authors here.
type scope struct {
	repo, state, author string
}

func (sc scope) String() string {
	s := sc.repo + " state=" + sc.state
	if sc.author != "" {
		s += " author=" + sc.author
	}
	return s
}

// scopes expands the query into the listings that together answer it.
// Merged and closed pull requests are both the API's "closed".
func (q query) scopes() []scope {
	states := []string{"all"}
	if len(q.states) > 0 {
		states = nil
		for _, s := range q.states {
			if s == "merged" {
				s = "closed"
			}
			if !slices.Contains(states, s) {
				states = append(states, s)
			}
		}
	}
	authors := []string{""}
	if q.kind != sdk.KindPullRequest && q.kind != sdk.KindRelease && len(q.authors) > 0 { // their APIs take one
		authors = q.authors
	}
	var out []scope
	for _, r := range q.repos {
		for _, s := range states {
			for _, a := range authors {
				out = append(out, scope{repo: r, state: s, author: a})
			}
		}
	}
	return out
}

// parseRequest checks req against what the kind supports; defaultRepo is
// the configured repository, used when the request names none.
func parseRequest(req sdk.FetchRequest, defaultRepo string) (query, error) {
	q := query{since: req.Since, until: req.Until, limit: req.Limit, dateField: "updated"}
	switch strings.ToLower(strings.TrimSpace(req.Kind)) {
	case "", "issue", "issues":
		q.kind = sdk.KindIssue
	case "pull_request", "pull_requests", "pr", "prs", "pull", "pulls":
		q.kind = sdk.KindPullRequest
	case "commit", "commits":
		q.kind = sdk.KindCommit
	case "release", "releases":
		q.kind = sdk.KindRelease
	case "pipeline", "pipelines", "workflow_run", "workflow_runs", "run", "runs":
		q.kind = sdk.KindPipeline
	default:
		return q, sdk.Errorf(sdk.KindBadRequest, "github: unknown kind %q: want issue, pull_request, commit, release or pipeline (workflow runs)", req.Kind)
	}
	f := req.Filters
	q.repos = filter.List(f["projects"])
	if len(q.repos) == 0 && defaultRepo != "" {
		q.repos = []string{defaultRepo}
	}
	if len(q.repos) == 0 {
		return q, sdk.Errorf(sdk.KindBadRequest, `github: no repository: pass the "projects" filter (e.g. projects=golang/go) or set config key "repo"`)
	}
	for _, r := range q.repos {
		if _, _, err := splitRepo(r); err != nil {
			return q, sdk.Errorf(sdk.KindBadRequest, "github: filter \"projects\": %v", err)
		}
	}
	q.authors, q.labels = filter.List(f["authors"]), filter.List(f["labels"])
	var err error
	if q.ref, err = filter.Single("github", "ref", f["ref"]); err != nil {
		return q, err
	}
	// "paths" is what the engine sends (grounded repository paths); the
	// commits API filters by one path.
	for _, key := range []string{"path", "paths"} {
		if q.path != "" {
			break
		}
		if q.path, err = filter.Single("github", key, f[key]); err != nil {
			return q, err
		}
	}
	if v, err := filter.Single("github", "date_field", f["date_field"]); err != nil {
		return q, err
	} else if v != "" {
		if v != "created" && v != "updated" {
			return q, sdk.Errorf(sdk.KindBadRequest, `github: filter "date_field": want "created" or "updated", got %q`, v)
		}
		q.dateField = v
	}
	if q.kind == sdk.KindCommit || q.kind == sdk.KindRelease {
		return q, nil // no states
	}
	for _, s := range filter.List(f["statuses"]) {
		normalise := normaliseState
		if q.kind == sdk.KindPipeline {
			normalise = func(_, s string) (string, error) { return normaliseRunStatus(s) }
		}
		state, err := normalise(q.kind, s)
		if err != nil {
			return q, err
		}
		if state == "all" {
			q.states = nil
			break
		}
		if !slices.Contains(q.states, state) {
			q.states = append(q.states, state)
		}
	}
	return q, nil
}

// normaliseState maps a user's status word to open, closed, merged or all.
func normaliseState(kind, status string) (string, error) {
	switch s := strings.ToLower(strings.TrimSpace(status)); s {
	case "open", "opened", "unresolved":
		return "open", nil
	case "closed", "resolved", "done":
		return "closed", nil
	case "all":
		return "all", nil
	case "merged":
		if kind == sdk.KindPullRequest {
			return s, nil
		}
	}
	want := "open, closed or all"
	if kind == sdk.KindPullRequest {
		want = "open, closed, merged or all"
	}
	return "", sdk.Errorf(sdk.KindBadRequest, "github: unknown %s status %q: want %s", kind, status, want)
}

// window places t against since/until: -1 older than since (the listing,
// newest first, is done), 1 newer than until (skip), 0 inside.
func (q query) window(t time.Time) int {
	switch {
	case !q.since.IsZero() && t.Before(q.since):
		return -1
	case !q.until.IsZero() && t.After(q.until):
		return 1
	}
	return 0
}

// exact reports whether every item the API lists becomes a record: no
// filter is left to the plugin (and /issues lists no pull requests to skip),
// so a page the size of the limit is enough.
func (q query) exact() bool {
	switch q.kind {
	case sdk.KindCommit, sdk.KindPipeline:
		return true
	case sdk.KindPullRequest:
		return q.until.IsZero() && len(q.authors) == 0 && len(q.labels) == 0 &&
			!slices.Contains(q.states, "merged") && !slices.Contains(q.states, "closed")
	case sdk.KindRelease:
		return q.since.IsZero() && q.until.IsZero() && len(q.authors) == 0
	}
	return false
}

// keepAuthor reports whether login is one of the authors asked for, if any.
func (q query) keepAuthor(login string) bool {
	return len(q.authors) == 0 || slices.ContainsFunc(q.authors, func(a string) bool { return strings.EqualFold(a, login) })
}

// keepPull reports whether a pull request passes the filters /pulls cannot apply.
func (q query) keepPull(state, author string, labels []string) bool {
	if len(q.states) > 0 && !slices.Contains(q.states, state) {
		return false
	}
	if !q.keepAuthor(author) {
		return false
	}
	for _, l := range q.labels {
		if !slices.ContainsFunc(labels, func(have string) bool { return strings.EqualFold(have, l) }) {
			return false
		}
	}
	return true
}
