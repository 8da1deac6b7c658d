package github

import (
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/plugins/internal/filter"
	"github.com/nous-dev/nous/sdk"
)

// Filters lists the filter keys the github source understands.
var Filters = []string{"projects", "statuses", "authors", "assignees", "milestones", "labels", "ref", "revisions", "path", "paths", "date_field"}

// query is a FetchRequest checked and normalised for one record kind.
type query struct {
	kind       string
	repos      []string
	states     []string // what the user asked: open, closed, merged; none means all
	authors    []string
	assignees  []string // logins, "none" or "*"
	milestones []string // numbers, titles, "none" or "*"
	labels     []string
	ref        string // pull requests' base branch; commits' branch; runs' branch
	latest     bool   // releases: only the latest (statuses=latest)
	path       string // commits touching it
	dateField  string // "created", "updated", or for pull requests "merged" or "closed": which timestamp since/until bound
	since      time.Time
	until      time.Time
	limit      int
}

// scope is one listing: a repository, an API state (a run status for
// pipelines) and, for issues, commits and runs, one author; for issues one
// assignee and one milestone too: their APIs take one. Pull requests
// expand authors, assignees and milestones into searches themselves.
type scope struct {
	repo, state, author, assignee, milestone string
}

func (sc scope) String() string {
	s := sc.repo + " state=" + sc.state
	for _, kv := range [][2]string{{"author", sc.author}, {"assignee", sc.assignee}, {"milestone", sc.milestone}} {
		if kv[1] != "" {
			s += " " + kv[0] + "=" + kv[1]
		}
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
	authors, assignees, milestones := []string{""}, []string{""}, []string{""}
	if q.kind != sdk.KindPullRequest && q.kind != sdk.KindRelease && len(q.authors) > 0 { // their APIs take one
		authors = q.authors
	}
	if q.kind == sdk.KindIssue {
		assignees, milestones = orBlank(q.assignees), orBlank(q.milestones)
	}
	var out []scope
	for _, r := range q.repos {
		for _, s := range states {
			for _, a := range authors {
				for _, as := range assignees {
					for _, m := range milestones {
						out = append(out, scope{repo: r, state: s, author: a, assignee: as, milestone: m})
					}
				}
			}
		}
	}
	return out
}

// orBlank is values, or one blank value (no filter) when there are none.
func orBlank(values []string) []string {
	if len(values) == 0 {
		return []string{""}
	}
	return values
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
	for i, r := range q.repos {
		if _, _, err := splitRepo(r); err == nil {
			continue
		}
		// "the octo-repo repo": the configured repository by its name alone.
		if _, name, err := splitRepo(defaultRepo); err == nil && strings.EqualFold(name, strings.TrimSpace(r)) {
			q.repos[i] = defaultRepo
			continue
		}
		err := sdk.Errorf(sdk.KindBadRequest, "github: filter \"projects\": %q: want owner/name, e.g. golang/go", r)
		if defaultRepo != "" {
			err = sdk.Errorf(sdk.KindBadRequest, "github: filter \"projects\": %q is not the configured repository %s: name another as owner/name", r, defaultRepo)
		}
		return q, err
	}
	q.authors, q.labels = filter.List(f["authors"]), filter.List(f["labels"])
	q.assignees, q.milestones = filter.List(f["assignees"]), filter.List(f["milestones"])
	if (len(q.assignees) > 0 || len(q.milestones) > 0) && q.kind != sdk.KindIssue && q.kind != sdk.KindPullRequest {
		return q, sdk.Errorf(sdk.KindBadRequest, `github: filters "assignees" and "milestones" apply to issues and pull requests, not %ss`, q.kind)
	}
	var err error
	if q.ref, err = filter.Ref("github", q.kind, f); err != nil {
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
	dateField, err := filter.Single("github", "date_field", f["date_field"])
	if v := dateField; err != nil {
		return q, err
	} else if v != "" {
		switch {
		case v == "created" || v == "updated":
		case q.kind == sdk.KindPullRequest && (v == "merged" || v == "closed"):
		case q.kind == sdk.KindPullRequest:
			return q, sdk.Errorf(sdk.KindBadRequest, `github: filter "date_field": want "created", "updated", "merged" or "closed", got %q`, v)
		default:
			return q, sdk.Errorf(sdk.KindBadRequest, `github: filter "date_field": want "created" or "updated", got %q`, v)
		}
		q.dateField = v
	}
	if q.kind == sdk.KindCommit {
		return q, nil // no states
	}
	if q.kind == sdk.KindRelease {
		q.parseReleaseStates(filter.List(f["statuses"]))
		return q, nil
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
	// "merged last week" bounds merged_at, "closed last week" closed_at.
	if dateField == "" && q.kind == sdk.KindPullRequest && len(q.states) == 1 && (q.states[0] == "merged" || q.states[0] == "closed") {
		q.dateField = q.states[0]
	}
	return q, nil
}

// parseReleaseStates reads the one status releases have: "latest", the
// release GitHub marks latest (not a draft nor a prerelease). Issue states
// mean nothing to releases and are ignored, as the gitlab source does.
func (q *query) parseReleaseStates(states []string) {
	q.latest = slices.ContainsFunc(states, func(s string) bool { return strings.EqualFold(strings.TrimSpace(s), "latest") })
}

// normaliseState maps a user's status word to open, closed, merged or all.
func normaliseState(kind, status string) (string, error) {
	if state := filter.OpenOrClosed(status); state != "" {
		return state, nil
	}
	switch s := strings.ToLower(strings.TrimSpace(status)); s {
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
		return q.until.IsZero() && len(q.authors) == 0 && len(q.labels) == 0 && len(q.assignees) == 0 && len(q.milestones) == 0 &&
			(q.dateField == "created" || q.dateField == "updated") &&
			!slices.Contains(q.states, "merged") && !slices.Contains(q.states, "closed")
	case sdk.KindRelease:
		return q.since.IsZero() && q.until.IsZero() && len(q.authors) == 0 && !q.latest
	}
	return false
}

// keepAuthor reports whether login is one of the authors asked for, if any.
func (q query) keepAuthor(login string) bool {
	return len(q.authors) == 0 || slices.ContainsFunc(q.authors, func(a string) bool { return strings.EqualFold(a, login) })
}

// keepPull reports whether a pull request record passes the filters /pulls
// cannot apply; milestones are titles here (see milestoneTitles).
func (q query) keepPull(rec sdk.Record) bool {
	if len(q.states) > 0 && !slices.Contains(q.states, rec.Fields["state"].(string)) {
		return false
	}
	if !q.keepAuthor(rec.Author) {
		return false
	}
	labels, _ := rec.Fields["labels"].([]string)
	for _, l := range q.labels {
		if !slices.ContainsFunc(labels, func(have string) bool { return strings.EqualFold(have, l) }) {
			return false
		}
	}
	assignees, _ := rec.Fields["assignees"].([]string)
	milestone, _ := rec.Fields["milestone"].(string)
	return matchesAny(q.assignees, func(a string) bool {
		return matchOne(a, len(assignees) > 0, slices.ContainsFunc(assignees, equalFold(a)))
	}) && matchesAny(q.milestones, func(m string) bool { return matchOne(m, milestone != "", m == milestone) })
}

// matchesAny reports whether no value is asked for or one of them matches.
func matchesAny(want []string, match func(string) bool) bool {
	return len(want) == 0 || slices.ContainsFunc(want, match)
}

// matchOne reads a value as GitHub's list endpoints do: "none" matches
// items without one, "*" items with any, else the value itself.
func matchOne(want string, has, equal bool) bool {
	switch want {
	case "none":
		return !has
	case "*":
		return has
	}
	return equal
}

func equalFold(a string) func(string) bool {
	return func(b string) bool { return strings.EqualFold(a, b) }
}

// listSort is what /pulls and /search/issues sort by for the date field:
// merged and closed order by updated, which is never before them.
func (q query) listSort() string {
	if q.dateField == "created" {
		return "created"
	}
	return "updated"
}

// ranged reports whether the request bounds a date.
func (q query) ranged() bool { return !q.since.IsZero() || !q.until.IsZero() }

// inWindow reports whether rec falls within since/until; with a merged or
// closed date field and a range, a pull request never merged (or closed)
// does not.
func (q query) inWindow(rec sdk.Record) bool {
	if q.window(rec.Time) != 0 {
		return false
	}
	if (q.dateField == "merged" || q.dateField == "closed") && q.ranged() {
		_, ok := rec.Fields[q.dateField+"_at"]
		return ok
	}
	return true
}

// wantsSearch reports whether a pull request request filters what /pulls
// cannot, so the search API would list fewer pages.
func (q query) wantsSearch() bool {
	return len(q.authors)+len(q.labels)+len(q.assignees)+len(q.milestones) > 0 ||
		((q.dateField == "merged" || q.dateField == "closed") && q.ranged())
}
