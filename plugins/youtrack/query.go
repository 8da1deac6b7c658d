package youtrack

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// Filters lists the filter keys the youtrack source understands.
var Filters = []string{"projects", "statuses", "authors", "labels", "query", "date_field"}

// query is a FetchRequest checked and turned into YouTrack search terms.
type query struct {
	projects  []string
	statuses  []string
	authors   []string
	labels    []string
	text      string // the verbatim `query` filter
	dateField string // "updated" (default) or "created"
	since     time.Time
	until     time.Time // exclusive, as the host resolves ranges
	limit     int
}

// parseRequest checks req; defaults are the configured projects.
func parseRequest(req sdk.FetchRequest, defaults []string) (query, error) {
	switch strings.ToLower(strings.TrimSpace(req.Kind)) {
	case "", "issue", "issues":
	default:
		return query{}, sdk.Errorf(sdk.KindBadRequest, "youtrack: unknown kind %q: this source returns issues", req.Kind)
	}
	f := req.Filters
	q := query{
		projects: list(f["projects"]), statuses: list(f["statuses"]), authors: list(f["authors"]),
		labels: list(f["labels"]), dateField: "updated", since: req.Since, until: req.Until, limit: req.Limit,
	}
	if len(q.projects) == 0 {
		q.projects = defaults
	}
	q.text = strings.TrimSpace(strings.Join(f["query"], " "))
	if df := strings.TrimSpace(strings.Join(f["date_field"], "")); df != "" {
		if df != "created" && df != "updated" {
			return q, sdk.Errorf(sdk.KindBadRequest, `youtrack: filter "date_field": want "created" or "updated", got %q`, df)
		}
		q.dateField = df
	}
	if !q.since.IsZero() && !q.until.IsZero() && !q.until.After(q.since) {
		return q, sdk.Errorf(sdk.KindBadRequest, "youtrack: empty time range: until %s is not after since %s", q.until.Format(time.RFC3339), q.since.Format(time.RFC3339))
	}
	return q, nil
}

// String renders the YouTrack search query. Sorting by creation keeps
// $skip paging stable while issues are being updated.
func (q query) String() string {
	var terms []string
	if len(q.projects) > 0 {
		terms = append(terms, "project: "+values(q.projects))
	}
	if t := statusTerm(q.statuses); t != "" {
		terms = append(terms, t)
	}
	if len(q.authors) > 0 {
		terms = append(terms, "reporter: "+values(q.authors))
	}
	for _, l := range q.labels { // every tag must match, like GitLab labels
		terms = append(terms, "tag: "+value(l))
	}
	if t := q.rangeTerm(); t != "" {
		terms = append(terms, t)
	}
	if q.text != "" {
		terms = append(terms, q.text)
	}
	terms = append(terms, "sort by: created asc")
	return strings.Join(terms, " ")
}

// statusTerm maps status words: open/unresolved to #Unresolved,
// resolved/closed/done to #Resolved, anything else to a State value;
// several are alternatives.
func statusTerm(statuses []string) string {
	var alts, states []string
	for _, s := range statuses {
		switch strings.ToLower(s) {
		case "all":
			return ""
		case "open", "opened", "unresolved":
			alts = appendNew(alts, "#Unresolved")
		case "resolved", "closed", "done":
			alts = appendNew(alts, "#Resolved")
		default:
			states = appendNew(states, s)
		}
	}
	if len(states) > 0 {
		alts = append(alts, "State: "+values(states))
	}
	switch len(alts) {
	case 0:
		return ""
	case 1:
		return alts[0]
	}
	return "(" + strings.Join(alts, " or ") + ")"
}

// rangeTerm renders since/until as an inclusive YouTrack range, e.g.
// `updated: 2024-01-01 .. 2024-01-31`; a missing bound is `*`.
func (q query) rangeTerm() string {
	if q.since.IsZero() && q.until.IsZero() {
		return ""
	}
	from, to := "*", "*"
	if !q.since.IsZero() {
		from = searchTime(q.since)
	}
	if !q.until.IsZero() {
		// The host's ranges are half-open; YouTrack's are inclusive.
		if isMidnight(q.until) {
			to = q.until.AddDate(0, 0, -1).Format(time.DateOnly)
		} else {
			to = q.until.Add(-time.Second).Format("2006-01-02T15:04:05")
		}
	}
	return q.dateField + ": " + from + " .. " + to
}

func searchTime(t time.Time) string {
	if isMidnight(t) {
		return t.Format(time.DateOnly)
	}
	return t.Format("2006-01-02T15:04:05")
}

func isMidnight(t time.Time) bool {
	h, m, s := t.Clock()
	return h == 0 && m == 0 && s == 0 && t.Nanosecond() == 0
}

var plainValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\p{L}\p{N}_.@-]+$`) })

// value quotes a search value in braces unless it is a single plain word.
func value(v string) string {
	if plainValue().MatchString(v) {
		return v
	}
	return "{" + strings.NewReplacer("{", "", "}", "").Replace(v) + "}"
}

func values(vs []string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = value(v)
	}
	return strings.Join(out, ", ")
}

// list flattens filter values, splitting comma-separated ones and dropping blanks.
func list(vs []string) []string {
	var out []string
	for _, v := range vs {
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = appendNew(out, part)
			}
		}
	}
	return out
}

func appendNew(vs []string, v string) []string {
	if slices.Contains(vs, v) {
		return vs
	}
	return append(vs, v)
}
