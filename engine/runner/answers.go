package runner

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
)

// counting matches questions that ask for a number.
var counting = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(how\s+many|number\s+of|count)\b`) })

// answers fills res.Answers: one per accepted intent, in plan order.
func (r *run) answers(res *Result) {
	if len(r.plan.Reasoning.Intents) == 0 {
		return
	}
	byID := make(map[string]*StepResult, len(res.Steps))
	for i := range res.Steps {
		byID[res.Steps[i].ID] = &res.Steps[i]
	}
	for i, in := range r.plan.Reasoning.Intents {
		res.Answers = append(res.Answers, r.answer(i, in.Type, byID))
	}
}

// answer assembles intent idx's answer from its steps.
func (r *run) answer(idx int, intent string, results map[string]*StepResult) Answer {
	steps := r.intentSteps(idx)
	a := Answer{Intent: intent, Status: ResultSuccess, Records: []string{}}
	for _, st := range steps {
		a.Steps = append(a.Steps, st.id)
		if sr := results[st.id]; sr != nil && sr.Outside != "" && a.Outside == "" {
			a.Outside, a.AskedSince, a.AskedUntil = sr.Outside, sr.AskedSince, sr.AskedUntil
		}
	}
	a.Counting = intent == "query_analytics" || counting().MatchString(r.plan.Query) ||
		slices.ContainsFunc(steps, func(st *stepState) bool { return st.action() == "stats" })

	ans, recs := answerSteps(steps)
	if ans != nil {
		a.Report, a.Confidence, a.SourcesUsed = ans.out.Answer.FinalReport, ans.out.Answer.ConfidenceLevel, ans.out.Answer.SourcesUsed
	}
	var (
		inside, outside []sdk.Record
		omitted         tally // records of the step beyond those held: never outside the period
	)
	if recs != nil {
		a.Step = recs.id
		omitted = recs.out.Omitted
		inside = make([]sdk.Record, 0, len(recs.out.Records))
		for _, rec := range recs.out.Records {
			if o := OutsideOf(rec); o != "" {
				if a.Outside == "" {
					a.Outside = o
				}
				outside = append(outside, rec)
			} else {
				inside = append(inside, rec)
			}
		}
	}
	u := r.understand(idx)
	// An issues intent is answered by issues, not by the commits a gap
	// search brought in; "how many commits" not by the issues an analytics
	// intent also fetched.
	inside, omitted = ofKindsCounted(inside, omitted, u.kinds, true)
	named := namedKinds(r.plan.Query)
	if a.Counting {
		inside, omitted = ofKindsCounted(inside, omitted, named, false)
	}
	a.Records = make([]string, len(inside))
	for i, rec := range inside {
		a.Records[i] = rec.ID
	}
	a.Count, a.Authors = len(inside)+omitted.count(), authorsCounted(inside, omitted)

	if a.Outside != "" && a.AskedSince.IsZero() && a.AskedUntil.IsZero() {
		a.AskedSince, a.AskedUntil = u.since, u.until
	}
	if len(outside) > 0 {
		newest := func(x, y sdk.Record) int { return cmp.Or(x.Time.Compare(y.Time), cmp.Compare(y.ID, x.ID)) }
		n := slices.MaxFunc(outside, newest)
		if a.Outside == OutsideAfter {
			n = slices.MinFunc(outside, newest)
		}
		a.Nearest = &RecordRef{ID: n.ID, ShortID: DisplayID(n), Title: oneLine(n.Title), Time: n.Time}
	}
	kinds := sortKinds(union(recordKinds(inside), sortedKeys(omitted)))
	if len(kinds) == 0 {
		// What the question names, of what the intent asked ("PRs" names
		// pull and merge requests; a commit intent answers with commits).
		kinds = firstNonEmpty(intersect(named, u.kinds), u.kinds, named, recordKinds(outside))
	}
	a.Understood = u.line(intent, kinds, a.Counting, r.plan.Query)
	a.Status = r.answerStatus(steps, recs, ans, a, u)
	a.Confidence = capConfidence(a.Confidence, a.Status)
	a.Result = resultLine(a, kinds, kindCountsCounted(inside, omitted), u)
	if u.stats && a.Count > 0 {
		// The period is the Understood line's (see understanding.line).
		plain := a
		plain.Counting = false
		a.Result = resultLine(plain, kinds, kindCountsCounted(inside, omitted), u)
		a.Result = r.withLines(&a, inside, omitted)
	}
	if a.Status == ResultFailed && a.Count == 0 && a.Nearest == nil {
		a.Result = "not answered"
		if e := firstError(steps); e != "" {
			a.Result += " (" + clip(oneLine(r.redactErr(errors.New(e)).Error()), 160) + ")"
		}
	}
	return a
}

// withLines puts the line statistics of every record before the result
// ("+63550 -31064 lines in 119 commits by 16 authors"), or marks the
// answer as without them, which makes it partial and is said first.
func (r *run) withLines(a *Answer, inside []sdk.Record, omitted tally) string {
	var ls sdk.LineStats
	for _, rec := range inside {
		ls.Add(rec)
	}
	for _, kind := range sortedKeys(omitted) {
		k := omitted[kind]
		ls.Merge(k.lines())
		if k.Lines == nil {
			ls.Without += k.NoStats
			ls.Merges += k.Merges
		}
	}
	if ls.Commits == 0 && ls.Merges == 0 {
		a.noStats = max(ls.Without, 1)
		a.Status = ResultPartial
		a.Confidence = capConfidence(a.Confidence, a.Status)
		return "no line statistics; " + a.Result
	}
	return fmt.Sprintf("+%d -%d lines in %s", ls.Additions, ls.Deletions, a.Result)
}

// intentSteps are the steps of intent idx in plan order, then the steps
// the loop added for them.
func (r *run) intentSteps(idx int) []*stepState {
	var out []*stepState
	for _, st := range r.steps {
		if r.intentOf(st) == idx {
			out = append(out, st)
		}
	}
	return out
}

// intentOf is the intent index of st; a step the loop added belongs to the
// intent of the step it was added for.
func (r *run) intentOf(st *stepState) int {
	for range len(r.steps) {
		o := r.byID[st.origin]
		if st.origin == "" || o == nil {
			break
		}
		st = o
	}
	return st.hyp.IntentIndex
}

// answerSteps picks the writer step that composed the intent's answer and
// the step whose records answer it: the last completed step with records,
// a planned step before one the loop added (an added step's records reach
// the planned steps that depend on it).
func answerSteps(steps []*stepState) (writer, records *stepState) {
	for _, st := range steps {
		if st.status != engine.StatusCompleted {
			continue
		}
		if st.out.Answer != nil && (writer == nil || writer.origin != "" || st.origin == "") {
			writer = st
		}
		if len(st.out.Records) > 0 && (records == nil || records.origin != "" || st.origin == "") {
			records = st
		}
	}
	return writer, records
}

// answerStatus is failed when nothing of the intent completed, partial
// when a step did not complete or was an effect (not executed), the
// period was empty or a constraint on its sources could not be applied.
func (r *run) answerStatus(steps []*stepState, recs, writer *stepState, a Answer, u understanding) string {
	done, problem := 0, false
	for _, st := range steps {
		if len(st.out.Failed) > 0 || st.action() == string(engine.ActionEffect) {
			problem = true // a source of the intent failed, or its effect was not executed
		}
		switch st.status {
		case engine.StatusCompleted, engine.StatusRemoved:
			done++
		default:
			problem = true
		}
	}
	switch {
	case len(steps) > 0 && done == 0, recs == nil && writer == nil && problem:
		return ResultFailed
	case problem, a.Outside != "", r.unappliedOn(u.sources):
		return ResultPartial
	}
	return ResultSuccess
}

// unappliedOn reports whether a constraint of the question cannot be
// applied by (or could not be grounded on) one of sources, or names a
// path no source has.
func (r *run) unappliedOn(sources []string) bool {
	in := r.plan.Interpretation
	if in == nil {
		return false
	}
	for _, c := range in.Unapplied {
		if c.Source == "" || slices.Contains(sources, c.Source) {
			return true
		}
	}
	if len(in.Unknown) > 0 || len(in.Missing) > 0 {
		return true // a constraint no source knows was left out of every answer, or names nothing
	}
	for _, v := range in.Sources {
		if v.Error != "" && slices.Contains(sources, v.Name) {
			return true
		}
	}
	return false
}

// resultLine is what was found: "6 commits by 3 authors", a count with its
// period, or "no commits; the most recent before that is …".
func resultLine(a Answer, kinds []string, counts map[string]int, u understanding) string {
	countQ := a.Counting
	if !u.retrieves && a.Count == 0 && a.Nearest == nil {
		return ""
	}
	if a.Count == 0 {
		s := "no " + nouns(kinds)
		if countQ {
			s = "0 " + nouns(kinds)
			if p := periodPhrase(u.since, u.until); p != "" {
				s += " " + p
			}
		}
		if n := a.Nearest; n != nil {
			which := "the most recent before that"
			if a.Outside == OutsideAfter {
				which = "the oldest after that"
			}
			s += fmt.Sprintf("; %s is `%s` %q", which, n.ShortID, clip(n.Title, 80))
			if !n.Time.IsZero() {
				s += " on " + day(n.Time)
			}
		}
		return s
	}
	s := countPhrase(counts)
	if a.Authors > 0 {
		s += " by " + plural(a.Authors, "author", "authors")
	}
	if countQ {
		if p := periodPhrase(u.since, u.until); p != "" {
			s += " " + p
		}
	}
	return s
}

// normAuthor is an author as answers count them: trimmed, lower-cased.
func normAuthor(a string) string { return strings.ToLower(strings.TrimSpace(a)) }

func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// lastDay is the last day of a range ending before until.
func lastDay(until time.Time) string { return day(until.Add(-time.Nanosecond)) }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clip(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	// The first n-1 runes, as string([]rune(s)[:n-1]) spells them (an
	// invalid byte as U+FFFD), without converting all of s.
	end, runes := 0, 0
	for end = range s {
		if runes == n-1 {
			break
		}
		runes++
	}
	return string([]rune(s[:end])) + "…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// intersect is the elements of a that b holds, in a's order.
func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func firstNonEmpty(lists ...[]string) []string {
	for _, l := range lists {
		if len(l) > 0 {
			return l
		}
	}
	return nil
}

// ofKinds keeps the records of kinds (all when kinds is empty); with
// keepAll, all of them when none is of kinds.
func ofKinds(recs []sdk.Record, kinds []string, keepAll bool) []sdk.Record {
	if len(kinds) == 0 || !slices.ContainsFunc(recs, func(r sdk.Record) bool { return !slices.Contains(kinds, r.Kind) }) {
		return recs // nothing to leave out
	}
	out := make([]sdk.Record, 0, len(recs))
	for _, r := range recs {
		if slices.Contains(kinds, r.Kind) {
			out = append(out, r)
		}
	}
	if keepAll && len(out) == 0 {
		return recs
	}
	return out
}

// ofKindsCounted is ofKinds over the records held and the counts of the
// rest together.
func ofKindsCounted(recs []sdk.Record, omitted tally, kinds []string, keepAll bool) ([]sdk.Record, tally) {
	if len(kinds) == 0 {
		return recs, omitted
	}
	r, t := ofKinds(recs, kinds, false), omitted.of(kinds)
	if keepAll && len(r) == 0 && t.count() == 0 {
		return recs, omitted
	}
	return r, t
}

// authorsCounted counts the distinct authors of the records held and of
// the rest (authors beyond the tally's bound are not told apart).
func authorsCounted(recs []sdk.Record, omitted tally) int {
	seen := omitted.authors()
	for _, r := range recs {
		if a := normAuthor(r.Author); a != "" {
			seen[a] = true
		}
	}
	return len(seen)
}

// kindCountsCounted counts by kind the records held and the rest.
func kindCountsCounted(recs []sdk.Record, omitted tally) map[string]int {
	m := kindCounts(recs)
	for kind, k := range omitted {
		m[kind] += k.Count
	}
	return m
}

// union is a with the values of b it lacks appended.
func union(a, b []string) []string {
	for _, v := range b {
		if v != "" && !slices.Contains(a, v) {
			a = append(a, v)
		}
	}
	return a
}

// firstError is the error of the first step that failed.
func firstError(steps []*stepState) string {
	for _, st := range steps {
		if st.status == engine.StatusFailed && st.err != nil {
			return st.id + ": " + st.err.Error()
		}
	}
	return ""
}
