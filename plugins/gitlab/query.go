package gitlab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/plugins/internal/filter"
	"github.com/nous-dev/nous/sdk"
)

// Filters lists the filter keys the gitlab source understands.
var Filters = []string{"projects", "statuses", "authors", "labels", "path", "paths", "ref", "revisions", "search", "date_field", "with_stats"}

// query is a FetchRequest checked and normalised for one record kind.
type query struct {
	kind      string
	projects  []string
	statuses  []string // normalised to the kind's API values
	authors   []string
	labels    []string
	path      string
	ref       string
	latest    bool // releases: only the latest (statuses=latest)
	search    string
	dateField string // "created" or "updated": which timestamp since/until bound
	withStats bool
	since     time.Time
	until     time.Time
	limit     int
}

// scope is one listing: a project, optionally narrowed to one author and
// one status, because GitLab's list endpoints take a single value of each.
// Releases take neither: one listing per project, authors filtered here.
type scope struct {
	project, author, status string
}

// scopes expands the query into the listings that together answer it.
func (q query) scopes() []scope {
	authors, statuses := orNone(q.authors), orNone(q.statuses)
	if q.kind == sdk.KindRelease {
		authors = orNone(nil)
	}
	out := make([]scope, 0, len(q.projects)*len(authors)*len(statuses))
	for _, p := range q.projects {
		for _, a := range authors {
			for _, s := range statuses {
				out = append(out, scope{project: p, author: a, status: s})
			}
		}
	}
	return out
}

func orNone(vs []string) []string {
	if len(vs) == 0 {
		return []string{""}
	}
	return vs
}

// parseRequest checks req against what the kind supports. defaults are the
// configured projects, used when the request names none.
func parseRequest(req sdk.FetchRequest, defaults []string) (query, error) {
	q := query{since: req.Since, until: req.Until, limit: req.Limit, withStats: true, dateField: "updated"}
	var err error
	if q.kind, err = normaliseKind(req.Kind); err != nil {
		return q, err
	}
	f := req.Filters
	q.projects = filter.List(f["projects"])
	if len(q.projects) == 0 {
		q.projects = defaults
	}
	if len(q.projects) == 0 {
		return q, sdk.Errorf(sdk.KindBadRequest, `gitlab: no project: pass the "projects" filter (e.g. projects=group/app) or set config key "projects"`)
	}
	q.authors = filter.List(f["authors"])
	q.labels = filter.List(f["labels"])
	for key, dst := range map[string]*string{"path": &q.path, "search": &q.search} {
		if *dst, err = filter.Single("gitlab", key, f[key]); err != nil {
			return q, err
		}
	}
	if q.ref, err = filter.Ref("gitlab", q.kind, f); err != nil {
		return q, err
	}
	// "paths" is what the engine sends (grounded repository paths); the
	// commits API filters by one path.
	if q.path == "" {
		if q.path, err = filter.Single("gitlab", "paths", f["paths"]); err != nil {
			return q, err
		}
	}
	if v, err := filter.Single("gitlab", "date_field", f["date_field"]); err != nil {
		return q, err
	} else if v != "" {
		if v != "created" && v != "updated" {
			return q, sdk.Errorf(sdk.KindBadRequest, `gitlab: filter "date_field": want "created" or "updated", got %q`, v)
		}
		q.dateField = v
	}
	if v, err := filter.Single("gitlab", "with_stats", f["with_stats"]); err != nil {
		return q, err
	} else if v != "" {
		if q.withStats, err = strconv.ParseBool(v); err != nil {
			return q, sdk.Errorf(sdk.KindBadRequest, `gitlab: filter "with_stats": want true or false, got %q`, v)
		}
	}
	for _, s := range filter.List(f["statuses"]) {
		if q.kind == sdk.KindRelease && strings.EqualFold(strings.TrimSpace(s), "latest") {
			q.latest = true
			continue
		}
		state, err := normaliseStatus(q.kind, s)
		if err != nil {
			return q, err
		}
		if state != "" && !slices.Contains(q.statuses, state) {
			q.statuses = append(q.statuses, state)
		}
	}
	return q, nil
}

func normaliseKind(kind string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(kind)) {
	case "", "commit", "commits":
		return sdk.KindCommit, nil
	case "issue", "issues":
		return sdk.KindIssue, nil
	// Pull requests are what GitHub calls merge requests; the engine asks
	// for them when a question says "PR" and the project lives on GitLab.
	case "merge_request", "merge_requests", "mr", "mrs",
		"pull_request", "pull_requests", "pr", "prs", "pull", "pulls":
		return sdk.KindMergeRequest, nil
	case "pipeline", "pipelines":
		return sdk.KindPipeline, nil
	case "release", "releases":
		return sdk.KindRelease, nil
	}
	return "", sdk.Errorf(sdk.KindBadRequest, "gitlab: unknown kind %q: want commit, issue, merge_request (pull_request), pipeline or release", kind)
}

var pipelineStatuses = []string{"created", "waiting_for_resource", "preparing", "pending", "running",
	"success", "failed", "canceled", "skipped", "manual", "scheduled"}

// normaliseStatus maps a user's status word to the kind's API value; ""
// means "no narrowing" (all, or a kind without states).
func normaliseStatus(kind, status string) (string, error) {
	s := strings.ToLower(strings.TrimSpace(status))
	switch kind {
	case sdk.KindCommit, sdk.KindRelease:
		return "", nil // commits and releases have no state
	case sdk.KindIssue, sdk.KindMergeRequest:
		switch filter.OpenOrClosed(s) {
		case "open":
			return "opened", nil
		case "closed":
			return "closed", nil
		}
		switch s {
		case "all", "":
			return "", nil
		case "merged", "locked":
			if kind == sdk.KindMergeRequest {
				return s, nil
			}
		}
		want := "opened, closed or all"
		if kind == sdk.KindMergeRequest {
			want = "opened, closed, merged, locked or all"
		}
		return "", sdk.Errorf(sdk.KindBadRequest, "gitlab: unknown %s status %q: want %s", kind, status, want)
	case sdk.KindPipeline:
		if s == "" || s == "all" {
			return "", nil
		}
		if slices.Contains(pipelineStatuses, s) {
			return s, nil
		}
		return "", sdk.Errorf(sdk.KindBadRequest, "gitlab: unknown pipeline status %q: want one of %s", status, strings.Join(pipelineStatuses, ", "))
	}
	return "", nil
}

// ptr returns a pointer to v, nil for the zero value, as the client's options want.
func ptr[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// dateBounds puts since/until on the created or the updated bounds of a
// list's options, as date_field says; the other pair stays nil.
func (q query) dateBounds() (createdAfter, createdBefore, updatedAfter, updatedBefore *time.Time) {
	if q.dateField == "created" {
		return timePtr(q.since), timePtr(q.until), nil, nil
	}
	return nil, nil, timePtr(q.since), timePtr(q.until)
}

// labelOptions is the labels filter as list options take it, nil for none.
func (q query) labelOptions() *gl.LabelOptions {
	if len(q.labels) == 0 {
		return nil
	}
	labels := gl.LabelOptions(q.labels)
	return &labels
}

// reference is an issue's or merge request's full reference
// (group/project#1), else fallback.
func reference(refs *gl.IssueReferences, fallback string) string {
	if refs != nil && refs.Full != "" {
		return refs.Full
	}
	return fallback
}

// timePtr is ptr for times, which are not comparable by ==.
func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func describeScope(sc scope) string {
	s := sc.project
	if sc.author != "" {
		s += fmt.Sprintf(" author=%s", sc.author)
	}
	if sc.status != "" {
		s += fmt.Sprintf(" status=%s", sc.status)
	}
	return s
}

// exact reports whether every item the API lists becomes a record, so a
// page the size of the limit is enough: only releases are filtered here,
// by until and authors.
func (q query) exact() bool {
	return q.kind != sdk.KindRelease || (q.until.IsZero() && len(q.authors) == 0 && !q.latest)
}

// keepAuthor reports whether username is one of the authors asked for, if
// any: releases filter their authors here.
func (q query) keepAuthor(username string) bool {
	return len(q.authors) == 0 || slices.ContainsFunc(q.authors, func(a string) bool { return strings.EqualFold(a, username) })
}
