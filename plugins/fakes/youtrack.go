package fakes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// YouTrack is a fake YouTrack REST API serving GET {Prefix}/api/issues
// with `query`, `fields`, `$skip` and `$top`, over generated issues whose
// custom fields cover every common $type. Like YouTrack, it answers with
// only `id` and `$type` when the request names no `fields`, and it orders
// by last update unless the query says `sort by: created asc`.
type YouTrack struct {
	Token  string
	Prefix string // "" for Cloud (https://x.youtrack.cloud), "/youtrack" for Server
	Issues []YouTrackIssue

	faults faults
	log    requestLog
}

// YouTrackIssue is one generated issue: the attributes the fake filters
// on, and the JSON it serves.
type YouTrackIssue struct {
	DBID      string
	ID        string // idReadable
	Project   string
	Summary   string
	Reporter  string
	State     string
	Resolved  bool
	Tags      []string
	Created   time.Time
	Updated   time.Time
	JSON      json.RawMessage // the full form, as with an explicit `fields`
	Bare      json.RawMessage // the form without `fields`: id and $type only
	Text      string          // summary and description, for text search
	Estimated int64           // Estimation minutes
}

// NewYouTrack returns a fake with 130 issues in ABC and 45 in DEF.
func NewYouTrack(token, prefix string) *YouTrack {
	return &YouTrack{Token: token, Prefix: prefix, Issues: GenerateYouTrackIssues(map[string]int{"ABC": 130, "DEF": 45})}
}

// Fail scripts a failure for upcoming requests.
func (y *YouTrack) Fail(f Fault) { y.faults.add(f) }

// Requests returns the raw request URIs seen so far.
func (y *YouTrack) Requests() []string { return y.log.all() }

var youtrackStates = []struct {
	name     string
	resolved bool
}{{"Open", false}, {"In Progress", false}, {"Fixed", true}, {"Verified", true}, {"Submitted", false}}

var youtrackUsers = []struct{ login, name string }{
	{"jane", "Jane Doe"}, {"li.wei", "Li Wei"}, {"olga", "Olga Petrova"}, {"sam", "Sam O'Neil"},
}

// GenerateYouTrackIssues builds issues deterministically: per project, issue
// n is created 5 hours after issue n-1 from 2024-01-01 UTC, and updated a
// varying time later.
func GenerateYouTrackIssues(perProject map[string]int) []YouTrackIssue {
	projects := make([]string, 0, len(perProject))
	for p := range perProject {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []YouTrackIssue
	db := 0
	for pi, p := range projects {
		for n := 1; n <= perProject[p]; n++ {
			db++
			i := n + pi*7
			st := youtrackStates[i%len(youtrackStates)]
			rep := youtrackUsers[i%len(youtrackUsers)]
			created := start.Add(time.Duration(n*5) * time.Hour)
			updated := created.Add(time.Duration(i%50) * 7 * time.Hour)
			tags := []string{[]string{"regression", "customer", "tech debt"}[i%3]}
			is := YouTrackIssue{
				DBID: fmt.Sprintf("2-%d", db), ID: fmt.Sprintf("%s-%d", p, n), Project: p,
				Summary:  fmt.Sprintf("%s: %s fails on %s", p, []string{"login", "export", "search", "billing"}[i%4], []string{"Safari", "Linux", "large files"}[i%3]),
				Reporter: rep.login, State: st.name, Resolved: st.resolved, Tags: tags,
				Created: created, Updated: updated, Estimated: int64(30 * (i%16 + 1)),
			}
			is.Text = is.Summary + "\nSteps: open the app, press the button. Build " + strconv.Itoa(100+i%20) + "."
			is.JSON = youtrackJSON(is, i, p)
			is.Bare = json.RawMessage(fmt.Sprintf(`{"id":%q,"$type":"Issue"}`, is.DBID))
			out = append(out, is)
		}
	}
	return out
}

// youtrackJSON renders an issue as YouTrack does for IssueFields.
func youtrackJSON(is YouTrackIssue, i int, project string) json.RawMessage {
	user := func(u struct{ login, name string }) map[string]any {
		return map[string]any{"login": u.login, "fullName": u.name, "$type": "User"}
	}
	var resolved any
	if is.Resolved {
		resolved = is.Updated.UnixMilli()
	}
	var assignee any
	if i%4 != 0 {
		assignee = user(youtrackUsers[(i+1)%len(youtrackUsers)])
	}
	var due any
	if i%3 == 0 {
		due = is.Created.Add(14 * 24 * time.Hour).UnixMilli()
	}
	minutes := is.Estimated
	cf := []map[string]any{
		{"name": "State", "$type": "StateIssueCustomField", "value": map[string]any{"name": is.State, "isResolved": is.Resolved, "$type": "StateBundleElement"}},
		{"name": "Priority", "$type": "SingleEnumIssueCustomField", "value": map[string]any{"name": []string{"Critical", "Major", "Normal", "Minor"}[i%4], "$type": "EnumBundleElement"}},
		{"name": "Type", "$type": "SingleEnumIssueCustomField", "value": map[string]any{"name": []string{"Bug", "Task", "Feature"}[i%3], "$type": "EnumBundleElement"}},
		{"name": "Assignee", "$type": "SingleUserIssueCustomField", "value": assignee},
		{"name": "Watchers", "$type": "MultiUserIssueCustomField", "value": []any{user(youtrackUsers[i%4]), user(youtrackUsers[(i+2)%4])}},
		{"name": "Subsystems", "$type": "MultiEnumIssueCustomField", "value": []any{map[string]any{"name": "UI", "$type": "EnumBundleElement"}, map[string]any{"name": "Backend", "$type": "EnumBundleElement"}}[:1+i%2]},
		{"name": "Fix versions", "$type": "MultiVersionIssueCustomField", "value": []any{map[string]any{"name": fmt.Sprintf("2024.%d", 1+i%3), "$type": "VersionBundleElement"}}},
		{"name": "Affected version", "$type": "SingleVersionIssueCustomField", "value": map[string]any{"name": "2023.3", "$type": "VersionBundleElement"}},
		{"name": "Fixed in build", "$type": "SingleBuildIssueCustomField", "value": map[string]any{"name": strconv.Itoa(100 + i%20), "$type": "BuildBundleElement"}},
		{"name": "Team", "$type": "SingleOwnedIssueCustomField", "value": map[string]any{"name": []string{"Core", "Web"}[i%2], "$type": "OwnedBundleElement"}},
		{"name": "Estimation", "$type": "PeriodIssueCustomField", "value": map[string]any{"minutes": minutes, "presentation": fmt.Sprintf("%dh %dm", minutes/60, minutes%60), "$type": "PeriodValue"}},
		{"name": "Due Date", "$type": "DateIssueCustomField", "value": due},
		{"name": "Notes", "$type": "TextIssueCustomField", "value": map[string]any{"text": "Customer ticket #" + strconv.Itoa(9000+i), "$type": "TextFieldValue"}},
		{"name": "Story points", "$type": "SimpleIssueCustomField", "value": i % 8},
		{"name": "Risk", "$type": "SimpleIssueCustomField", "value": float64(i%10) / 4},
	}
	tags := make([]any, len(is.Tags))
	for k, t := range is.Tags {
		tags[k] = map[string]any{"name": t, "$type": "IssueTag"}
	}
	rep := youtrackUsers[i%len(youtrackUsers)]
	doc := map[string]any{
		"id": is.DBID, "idReadable": is.ID, "summary": is.Summary,
		"description": strings.TrimPrefix(is.Text, is.Summary+"\n"),
		"created":     is.Created.UnixMilli(), "updated": is.Updated.UnixMilli(), "resolved": resolved,
		"reporter":     user(rep),
		"project":      map[string]any{"shortName": project, "name": project + " project", "$type": "Project"},
		"tags":         tags,
		"customFields": cf,
		"$type":        "Issue",
	}
	b, _ := json.Marshal(doc)
	return b
}

// ServeHTTP answers {Prefix}/api/issues, /api/admin/projects and
// /api/admin/customFieldSettings/bundles/state.
func (y *YouTrack) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	y.log.add(r)
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if ft, ok := y.faults.take(r.URL.RequestURI()); ok {
		ft.serve(w, token)
		return
	}
	if strings.HasPrefix(r.URL.Path, y.Prefix+"/api/admin/") && r.Method == http.MethodGet {
		if token != y.Token {
			gitlabError(w, http.StatusUnauthorized, `{"error":"Unauthorized","error_description":"Invalid token"}`)
			return
		}
		y.serveAdmin(w, r)
		return
	}
	if r.URL.Path != y.Prefix+"/api/issues" || r.Method != http.MethodGet {
		gitlabError(w, http.StatusNotFound, `{"error":"Not Found","error_description":"HTTP 404 Not Found"}`)
		return
	}
	if token != y.Token {
		gitlabError(w, http.StatusUnauthorized, `{"error":"Unauthorized","error_description":"Invalid token"}`)
		return
	}
	q := r.URL.Query()
	match, sorted, err := parseYouTrackQuery(q.Get("query"))
	if err != nil {
		gitlabError(w, http.StatusBadRequest, fmt.Sprintf(`{"error":"bad_request","error_description":%q}`, err.Error()))
		return
	}
	var hits []*YouTrackIssue
	for k := range y.Issues {
		if match(&y.Issues[k]) {
			hits = append(hits, &y.Issues[k])
		}
	}
	if sorted {
		sort.SliceStable(hits, func(a, b int) bool { return hits[a].Created.Before(hits[b].Created) })
	} else {
		sort.SliceStable(hits, func(a, b int) bool { return hits[a].Updated.After(hits[b].Updated) })
	}
	skip := max(atoiOr(q.Get("$skip"), 0), 0)
	top := atoiOr(q.Get("$top"), 42) // YouTrack's default page
	from, to := min(skip, len(hits)), min(skip+max(top, 0), len(hits))
	full := q.Get("fields") != ""
	var buf bytes.Buffer
	buf.WriteByte('[')
	for k, is := range hits[from:to] {
		if k > 0 {
			buf.WriteByte(',')
		}
		if full {
			buf.Write(is.JSON)
		} else {
			buf.Write(is.Bare)
		}
	}
	buf.WriteByte(']')
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_, _ = w.Write(buf.Bytes())
}

var (
	ytSort  = regexp.MustCompile(`(?i)sort by:\s*created\s+asc`)
	ytGroup = regexp.MustCompile(`\(([^()]*)\)`)
	ytValue = `(?:\{[^}]*\}|[^\s,{}()]+)`
	ytTerm  = regexp.MustCompile(`(?i)(project|reporter|tag|state|updated|created):\s*(` + ytValue + `(?:\s*\.\.\s*` + ytValue + `)?(?:\s*,\s*` + ytValue + `)*)`)
	ytHash  = regexp.MustCompile(`#(\w+)`)
)

type ytPredicate func(*YouTrackIssue) bool

// parseYouTrackQuery understands the subset of YouTrack's query language
// the source produces; leftover words are a text search.
func parseYouTrackQuery(query string) (ytPredicate, bool, error) {
	sorted := ytSort.MatchString(query)
	query = ytSort.ReplaceAllString(query, " ")
	var preds []ytPredicate
	var firstErr error
	for _, m := range ytGroup.FindAllStringSubmatch(query, -1) {
		var alts []ytPredicate
		for alt := range strings.SplitSeq(m[1], " or ") {
			p, err := ytAll(alt)
			if err != nil && firstErr == nil {
				firstErr = err
			}
			alts = append(alts, p)
		}
		preds = append(preds, func(is *YouTrackIssue) bool {
			return slices.ContainsFunc(alts, func(p ytPredicate) bool { return p(is) })
		})
	}
	query = ytGroup.ReplaceAllString(query, " ")
	p, err := ytAll(query)
	if firstErr == nil {
		firstErr = err
	}
	preds = append(preds, p)
	return func(is *YouTrackIssue) bool {
		for _, p := range preds {
			if !p(is) {
				return false
			}
		}
		return true
	}, sorted, firstErr
}

// ytAll parses terms that must all hold.
func ytAll(s string) (ytPredicate, error) {
	var preds []ytPredicate
	for _, m := range ytTerm.FindAllStringSubmatch(s, -1) {
		p, err := ytAttribute(strings.ToLower(m[1]), m[2])
		if err != nil {
			return nil, err
		}
		preds = append(preds, p)
	}
	s = ytTerm.ReplaceAllString(s, " ")
	for _, m := range ytHash.FindAllStringSubmatch(s, -1) {
		switch strings.ToLower(m[1]) {
		case "unresolved":
			preds = append(preds, func(is *YouTrackIssue) bool { return !is.Resolved })
		case "resolved":
			preds = append(preds, func(is *YouTrackIssue) bool { return is.Resolved })
		default:
			return nil, fmt.Errorf("unknown tag or keyword #%s", m[1])
		}
	}
	s = ytHash.ReplaceAllString(s, " ")
	for _, word := range strings.Fields(s) {
		word = strings.ToLower(word)
		preds = append(preds, func(is *YouTrackIssue) bool { return strings.Contains(strings.ToLower(is.Text), word) })
	}
	return func(is *YouTrackIssue) bool {
		for _, p := range preds {
			if !p(is) {
				return false
			}
		}
		return true
	}, nil
}

func ytAttribute(attr, raw string) (ytPredicate, error) {
	if attr == "updated" || attr == "created" {
		from, to, ok := strings.Cut(raw, "..")
		if !ok {
			return nil, fmt.Errorf("%s: want a range a .. b", attr)
		}
		lo, err := ytTime(strings.TrimSpace(from), false)
		if err != nil {
			return nil, err
		}
		hi, err := ytTime(strings.TrimSpace(to), true)
		if err != nil {
			return nil, err
		}
		return func(is *YouTrackIssue) bool {
			t := is.Updated
			if attr == "created" {
				t = is.Created
			}
			return (lo.IsZero() || !t.Before(lo)) && (hi.IsZero() || t.Before(hi))
		}, nil
	}
	var vals []string
	for v := range strings.SplitSeq(raw, ",") {
		vals = append(vals, strings.ToLower(strings.Trim(strings.TrimSpace(v), "{}")))
	}
	has := func(v string) bool { return slices.Contains(vals, strings.ToLower(v)) }
	switch attr {
	case "project":
		return func(is *YouTrackIssue) bool { return has(is.Project) }, nil
	case "reporter":
		return func(is *YouTrackIssue) bool { return has(is.Reporter) }, nil
	case "state":
		return func(is *YouTrackIssue) bool { return has(is.State) }, nil
	default: // tag
		return func(is *YouTrackIssue) bool { return slices.ContainsFunc(is.Tags, has) }, nil
	}
}

// ytTime parses a range bound; an upper date-only bound covers its whole day.
func ytTime(s string, upper bool) (time.Time, error) {
	if s == "*" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		if upper {
			t = t.AddDate(0, 0, 1)
		}
		return t, nil
	}
	t, err := time.Parse("2006-01-02T15:04:05", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("cannot parse date %q", s)
	}
	if upper {
		t = t.Add(time.Second)
	}
	return t, nil
}
