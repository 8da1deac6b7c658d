package runner

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nous-dev/nous/sdk"
)

// understanding is what one intent asks, read from the plan: the
// constraints of its retrievals, the period and what its sources hold.
type understanding struct {
	retrieves    bool     // the intent retrieves records at all
	sources      []string // the logical sources of its retrievals
	names        []string // what they hold, for a reader: "hashicorp/hcl"
	scope        []string // "touching hclwrite/", "by Radek Simko", …
	kinds        []string // record kinds its retrievals name
	since, until time.Time
	// partPeriod is set when only some retrievals applied the period;
	// periodKinds are then the kinds of those (empty when not known).
	partPeriod  bool
	periodKinds []string
	// stats is set when a retrieval of the intent asks for line
	// statistics (with_stats): the question is about files, directories
	// or lines changed, which the line names.
	stats bool
}

// kindOrder is the order kinds are named in; others follow, sorted.
var kindOrder = []string{sdk.KindCommit, sdk.KindIssue, sdk.KindPullRequest, sdk.KindMergeRequest, sdk.KindPipeline, sdk.KindRelease, sdk.KindDocument}

// kindWords find a record kind named in a question or a retrieval's description.
var kindWords = sync.OnceValue(func() []kindWord {
	reviews := regexp.MustCompile(`(?i)\b(pull[ -]requests?|PRs?|merge requests?|MRs?)\b`)
	reviewStems := []string{"pull", "pr", "merge", "mr"}
	return []kindWord{
		{sdk.KindCommit, regexp.MustCompile(`(?i)\bcommit(s|ted)?\b`), []string{"commit"}},
		{sdk.KindIssue, regexp.MustCompile(`(?i)\b(issues?|bugs?|tickets?)\b`), []string{"issue", "bug", "ticket"}},
		// GitHub's pull requests are GitLab's merge requests: a question
		// naming either is answered by whichever the project has.
		{sdk.KindPullRequest, reviews, reviewStems},
		{sdk.KindMergeRequest, reviews, reviewStems},
		{sdk.KindPipeline, regexp.MustCompile(`(?i)\b(pipelines?|CI runs?|workflow runs?)\b`), []string{"pipeline", "ci run", "workflow run"}},
		{sdk.KindRelease, regexp.MustCompile(`(?i)\breleases?\b`), []string{"release"}},
	}
})

// kindWord is a record kind and the words that name it.
type kindWord struct {
	kind string
	re   *regexp.Regexp
	// stems are what re's every match holds, lower-cased: an ASCII text
	// holding none of them cannot match, and is not run through re.
	stems []string
}

// names reports whether text names w's kind; lower is text lower-cased
// when text is ASCII, else "" (case folding beyond ASCII is re's to do).
func (w kindWord) names(text, lower string) bool {
	if lower != "" && !slices.ContainsFunc(w.stems, func(s string) bool { return strings.Contains(lower, s) }) {
		return false
	}
	return w.re.MatchString(text)
}

// understand reads what intent idx asks from the plan and its interpretation.
func (r *run) understand(idx int) understanding {
	var u understanding
	intentOf := make(map[string]int, len(r.plan.Reasoning.Hypotheses))
	for _, h := range r.plan.Reasoning.Hypotheses {
		intentOf[h.ID] = h.IntentIndex
	}
	intent := ""
	if idx >= 0 && idx < len(r.plan.Reasoning.Intents) {
		intent = r.plan.Reasoning.Intents[idx].Type
	}
	applied := map[string]bool{}     // key\x00value of the intent's filters
	var withPeriod, without []string // kinds of the retrievals with and without a period
	mixed := false
	plans := r.plan.Retrieval.Plans
	if !r.retrievesFor(idx, intentOf) {
		// Plan validation removed all the intent asked: the line says
		// what was not answered.
		plans = r.removedPlans()
	}
	for _, p := range plans {
		if i, ok := intentOf[p.Hypothesis]; !ok && p.Intent != intent || ok && i != idx {
			continue
		}
		u.retrieves = true
		// The period is the intent's own: another intent's fixed or
		// default dates were never applied to these retrievals.
		kinds := namedKinds(p.Description)
		if p.Kind != "" {
			kinds = []string{p.Kind}
		}
		if rg, ok, err := r.period(p.Filters); ok && err == nil {
			if u.since.IsZero() && u.until.IsZero() {
				u.since, u.until = rg.Since, rg.Until
			}
			withPeriod = append(withPeriod, kinds...)
		} else {
			without = append(without, kinds...)
			mixed = true
		}
		for _, s := range p.Sources {
			if !slices.Contains(u.sources, s) {
				u.sources = append(u.sources, s)
			}
		}
		for _, k := range kinds {
			if !slices.Contains(u.kinds, k) {
				u.kinds = append(u.kinds, k)
			}
		}
		for _, f := range p.Filters {
			if f.Key == sdk.FilterWithStats && slices.Contains(f.Values, "true") {
				u.stats = true
			}
			if f.Key == datesFilter {
				continue
			}
			if s := scopePhrase(f.Key, f.Values); s != "" && !slices.Contains(u.scope, s) {
				u.scope = append(u.scope, s)
			}
			for _, v := range f.Values {
				applied[f.Key+"\x00"+v] = true
			}
		}
	}
	if !u.retrieves {
		return u
	}
	u.kinds = sortKinds(u.kinds)
	if mixed && (!u.since.IsZero() || !u.until.IsZero()) {
		u.partPeriod = true
		for _, k := range sortKinds(withPeriod) {
			if !slices.Contains(without, k) && !slices.Contains(u.periodKinds, k) {
				u.periodKinds = append(u.periodKinds, k)
			}
		}
	}
	if in := r.plan.Interpretation; in != nil {
		// What the intent's sources cannot apply is said in its line too.
		for _, c := range in.Unapplied {
			if c.Source == "" || slices.Contains(u.sources, c.Source) {
				if s := scopePhrase(c.Key, []string{c.Value}); s != "" {
					u.scope = append(u.scope, "(not applied: "+s+")")
				}
			}
		}
		// A filter read from an ambiguous phrase says so: the answer is narrower.
		for _, c := range in.Constraints {
			if s := "(" + c.Reason + ")"; c.Reason != "" && applied[c.Key+"\x00"+c.Value] && !slices.Contains(u.scope, s) {
				u.scope = append(u.scope, s)
			}
		}
		for _, v := range in.Sources {
			if n := v.Coverage.Name; n != "" && slices.Contains(u.sources, v.Name) && !slices.Contains(u.names, n) {
				u.names = append(u.names, n)
			}
		}
	}
	return u
}

// line is the Understood sentence: "Commits in hashicorp/hcl touching
// hclwrite/, 2024-01-01 – 2024-12-31". A counting question's period goes
// with its number, in the result.
func (u understanding) line(intent string, kinds []string, countQ bool, query string) string {
	var b strings.Builder
	switch {
	case !u.retrieves:
		b.WriteString(intentTitle(intent) + ": " + strings.TrimSpace(clip(oneLine(query), 100)))
		return b.String()
	case u.stats:
		// The period goes with what was asked, not with a count.
		b.WriteString(statsTitle(query))
		countQ = false
	case countQ:
		b.WriteString("Number of " + nouns(kinds))
	case intent == "query_status":
		b.WriteString("Status from " + nouns(kinds))
	default:
		n := nouns(kinds)
		b.WriteString(strings.ToUpper(n[:1]) + n[1:])
	}
	if len(u.names) > 0 {
		b.WriteString(" in " + strings.Join(u.names, " and "))
	}
	for _, s := range u.scope {
		b.WriteString(" " + s)
	}
	if !countQ {
		if s := span(u.since, u.until); s != "" && u.partPeriod {
			of := "some retrievals"
			if len(u.periodKinds) > 0 {
				of = nouns(u.periodKinds)
			}
			b.WriteString(", period " + s + " for " + of)
		} else if s != "" {
			b.WriteString(", " + s)
		}
	}
	return b.String()
}

// statsWords name what a question about line statistics asks, most
// specific first.
var statsWords = sync.OnceValue(func() []statsWord {
	return []statsWord{
		{regexp.MustCompile(`(?i)\b(?:largest|biggest)\s+(?:commits?|changes?)\b`), "Largest commits by lines changed"},
		{regexp.MustCompile(`(?i)\b(?:director(?:y|ies)|dirs?|folders?|packages?|modules?)\b`), "Directories changed most"},
		{regexp.MustCompile(`(?i)\b(?:files?|paths?|hot ?spots?)\b`), "Files changed most"},
		{regexp.MustCompile(`(?i)\blines?\b[^?.!]*\b(?:removed|deleted)\b`), "Lines added and deleted"},
		{regexp.MustCompile(`(?i)\blines?\b[^?.!]*\badded\b`), "Lines added"},
	}
})

type statsWord struct {
	re    *regexp.Regexp
	title string
}

// statsTitle names what a question about line statistics asks: "Files
// changed most", "Lines added", "Largest commits by lines changed".
func statsTitle(query string) string {
	for _, w := range statsWords() {
		if w.re.MatchString(query) {
			return w.title
		}
	}
	return "Lines changed"
}

// intentTitle names an intent that retrieves nothing.
func intentTitle(intent string) string {
	switch intent {
	case "request_help":
		return "Help"
	case "command_action":
		return "Command"
	case "conversation":
		return "Conversation"
	}
	t := strings.ReplaceAll(strings.TrimPrefix(intent, "query_"), "_", " ")
	if t == "" {
		return "Question"
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

// scopePhrase is how a filter reads in a sentence.
func scopePhrase(key string, values []string) string {
	if len(values) == 0 {
		return ""
	}
	v := strings.Join(values, ", ")
	switch key {
	case sdk.FilterWithStats:
		// How records are computed, not which: the answer names the statistics.
		return ""
	case "paths":
		return "touching " + v
	case "authors":
		return "by " + v
	case "revisions":
		if len(values) == 1 && !strings.Contains(v, "..") {
			return "on " + v
		}
		if from, ok := strings.CutSuffix(v, ".."); ok && len(values) == 1 {
			return "since " + from
		}
		return "in " + v
	case "topics":
		return "about " + quoteAll(values)
	case "query":
		return "matching " + quoteAll(values)
	case "projects":
		return "in project " + v
	case "statuses":
		if v == "latest" { // releases: "what is in the latest release?"
			return "(the latest)"
		}
		return "with status " + v
	case "labels":
		return "labelled " + v
	case "assignees":
		return "assigned to " + v
	case "milestones":
		return "in milestone " + v
	}
	return strings.ReplaceAll(key, "_", " ") + " " + v
}

func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = `"` + v + `"`
	}
	return strings.Join(q, ", ")
}

// span is "2024-01-01 – 2024-12-31", "since …", "until …" or "".
func span(since, until time.Time) string {
	switch {
	case !since.IsZero() && !until.IsZero():
		return day(since) + " – " + lastDay(until)
	case !since.IsZero():
		return "since " + day(since)
	case !until.IsZero():
		return "until " + lastDay(until)
	}
	return ""
}

// periodPhrase is span as it follows a count: "between A and B".
func periodPhrase(since, until time.Time) string {
	if !since.IsZero() && !until.IsZero() {
		return "between " + day(since) + " and " + lastDay(until)
	}
	return span(since, until)
}

// namedKinds are the record kinds text names, in kindOrder.
func namedKinds(text string) []string {
	var out []string
	lower := ""
	if isASCII(text) {
		lower = strings.ToLower(text)
	}
	for _, w := range kindWords() {
		if w.names(text, lower) {
			out = append(out, w.kind)
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// recordKinds are the distinct kinds of recs, in kindOrder.
func recordKinds(recs []sdk.Record) []string {
	var out []string
	for _, r := range recs {
		if r.Kind != "" && !slices.Contains(out, r.Kind) {
			out = append(out, r.Kind)
		}
	}
	return sortKinds(out)
}

func kindCounts(recs []sdk.Record) map[string]int {
	m := map[string]int{}
	for _, r := range recs {
		m[r.Kind]++
	}
	return m
}

func sortKinds(kinds []string) []string {
	rank := func(k string) int {
		if i := slices.Index(kindOrder, k); i >= 0 {
			return i
		}
		return len(kindOrder)
	}
	slices.SortStableFunc(kinds, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b)) })
	return kinds
}

// noun is a kind's singular and plural.
func noun(kind string) (string, string) {
	switch kind {
	case "":
		return "record", "records"
	case sdk.KindMergeRequest:
		return "merge request", "merge requests"
	}
	n := strings.ReplaceAll(kind, "_", " ")
	switch {
	case strings.HasSuffix(n, "s"):
		return n, n + "es"
	case strings.HasSuffix(n, "y"):
		return n, strings.TrimSuffix(n, "y") + "ies"
	}
	return n, n + "s"
}

// nouns is "commits and issues" (or "records").
func nouns(kinds []string) string {
	if len(kinds) == 0 {
		return "records"
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		_, parts[i] = noun(k)
	}
	return joinAnd(parts)
}

// countPhrase is "312 commits and 40 issues".
func countPhrase(counts map[string]int) string {
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	parts := make([]string, 0, len(kinds))
	for _, k := range sortKinds(kinds) {
		one, many := noun(k)
		parts = append(parts, plural(counts[k], one, many))
	}
	return joinAnd(parts)
}

func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// retrievesFor reports whether intent idx has a retrieval left in the plan.
func (r *run) retrievesFor(idx int, intentOf map[string]int) bool {
	for _, p := range r.plan.Retrieval.Plans {
		if i, ok := intentOf[p.Hypothesis]; ok && i == idx {
			return true
		}
	}
	return false
}
