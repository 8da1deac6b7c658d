package file

import (
	"strings"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// doneStatuses are the statuses the "resolved" group matches and the
// "unresolved" group excludes (YouTrack's #Resolved / #Unresolved).
var doneStatuses = map[string]bool{"resolved": true, "closed": true, "done": true, "fixed": true, "wont-fix": true, "duplicate": true, "verified": true}

// filter is a FetchRequest's filters, normalised once per fetch.
type filter struct {
	since, until time.Time
	kinds        map[string]bool
	projects     map[string]bool
	statuses     map[string]bool
	labels       map[string]bool
	authors      []string
	query        []string
}

// Filter keys the source understands; others are ignored, because the
// engine sends every retrieval's filters (providers, dates…) to its source.
var filterKeys = []string{"projects", "statuses", "authors", "kinds", "labels", "query"}

func newFilter(req sdk.FetchRequest) filter {
	f := filter{
		since:    req.Since,
		until:    req.Until,
		kinds:    set(req.Filters["kinds"], strings.ToLower),
		projects: set(req.Filters["projects"], strings.ToLower),
		statuses: set(req.Filters["statuses"], normalStatus),
		labels:   set(req.Filters["labels"], strings.ToLower),
		authors:  lowered(req.Filters["authors"]),
		query:    lowered(req.Filters["query"]),
	}
	if req.Kind != "" {
		if f.kinds == nil {
			f.kinds = map[string]bool{}
		}
		f.kinds[strings.ToLower(req.Kind)] = true
	}
	return f
}

// statusSeparators folds the separators of a status (built once: a
// Replacer builds its table on first use).
var statusSeparators = strings.NewReplacer(" ", "-", "_", "-", "'", "")

// normalStatus folds case and the separators of "In Progress",
// "in_progress" and "in-progress" together.
func normalStatus(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = statusSeparators.Replace(s)
	if s == "opened" {
		return "open" // GitLab's word
	}
	return s
}

func set(values []string, norm func(string) string) map[string]bool {
	var out map[string]bool
	for _, v := range values {
		if v = norm(strings.TrimSpace(v)); v != "" {
			if out == nil {
				out = make(map[string]bool, len(values))
			}
			out[v] = true
		}
	}
	return out
}

func lowered(values []string) []string {
	var out []string
	for _, v := range values {
		if v = strings.ToLower(strings.TrimSpace(v)); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// match reports whether rec passes every filter. A record without the
// field a filter tests (no time, no project…) does not pass it.
func (f filter) match(rec *sdk.Record) bool {
	if !f.since.IsZero() || !f.until.IsZero() {
		if rec.Time.IsZero() || rec.Time.Before(f.since) || (!f.until.IsZero() && !rec.Time.Before(f.until)) {
			return false
		}
	}
	if f.kinds != nil && !f.kinds[strings.ToLower(rec.Kind)] {
		return false
	}
	if f.projects != nil && !f.projects[strings.ToLower(stringField(rec, "project"))] {
		return false
	}
	if f.statuses != nil && !f.matchStatus(normalStatus(stringField(rec, "status"))) {
		return false
	}
	if f.labels != nil && !f.matchLabels(rec) {
		return false
	}
	if f.authors != nil && !containsAny(strings.ToLower(rec.Author), f.authors) {
		return false
	}
	if f.query != nil && !containsAny(strings.ToLower(rec.Title), f.query) && !containsAny(strings.ToLower(rec.Body), f.query) {
		return false
	}
	return true
}

func (f filter) matchStatus(status string) bool {
	if status == "" {
		return false
	}
	return f.statuses[status] ||
		(f.statuses["unresolved"] && !doneStatuses[status]) ||
		(f.statuses["resolved"] && doneStatuses[status])
}

func (f filter) matchLabels(rec *sdk.Record) bool {
	labels, _ := rec.Fields["labels"].([]string)
	for _, l := range labels {
		if f.labels[strings.ToLower(l)] {
			return true
		}
	}
	return false
}

func stringField(rec *sdk.Record, key string) string {
	s, _ := rec.Fields[key].(string)
	return s
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
