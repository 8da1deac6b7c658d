package template

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/nous-dev/nous/sdk"
)

// sourcesHeadingAt matches a Sources (or References) heading in English
// or Chinese at the start of its text.
var sourcesHeadingAt = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\A#{1,6}\s*(?i:sources|references|來源|資料來源|參考資料)`)
})

// hasSourcesHeading reports whether a line of s is a Sources heading,
// trying the pattern only where a line starts with '#' instead of at every
// byte of a long draft.
func hasSourcesHeading(s string) bool {
	for i := 0; i < len(s); {
		if s[i] == '#' && sourcesHeadingAt().MatchString(s[i:]) {
			return true
		}
		nl := strings.IndexByte(s[i:], '\n')
		if nl < 0 {
			return false
		}
		i += nl + 1
	}
	return false
}

// hasDate reports whether s holds an ISO date between word boundaries
// (\b\d{4}-\d{2}-\d{2}\b), without a regular expression: some '-' is the
// first of a date's two.
func hasDate(s string) bool {
	for j := 0; j < len(s); j++ {
		k := strings.IndexByte(s[j:], '-')
		if k < 0 {
			return false
		}
		j += k
		start, end := j-4, j+6
		if start < 0 || end > len(s) || s[j+3] != '-' {
			continue
		}
		if allDigits(s[start:j]) && allDigits(s[j+1:j+3]) && allDigits(s[j+4:end]) &&
			(start == 0 || !isWordByte(s[start-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// findings are what a rule-based reading of a draft against the context
// records finds. The critic judges them; the analyst's revision fixes them.
type findings struct {
	empty      bool
	cited      []sdk.Record // context records the draft names
	uncited    int
	noSources  bool
	overclaims []string     // counts the evidence does not support
	lowTier    []sdk.Record // cited records from unknown or tier ≥ 3 sources
	noDates    bool         // the draft gives no date although records are dated
	offPeriod  string       // the requested period, when the draft says no record falls in it
}

// inspect reads draft against ev.
func inspect(l *labels, draft string, ev evidence) findings {
	f := findings{empty: strings.TrimSpace(draft) == ""}
	if f.empty {
		return f
	}
	// A draft may cite the nearest activity outside the period as context.
	c := newCitations(draft)
	for _, r := range slices.Concat(ev.records, ev.outside) {
		if c.cites(r) {
			f.cited = append(f.cited, r)
			if lowTier(r) {
				f.lowTier = append(f.lowTier, r)
			}
		} else {
			f.uncited++
		}
	}
	f.noSources = !hasSourcesHeading(draft)
	// The notes of a revision quote the review's complaints, and record
	// titles are the records' own words ("sdk: chunks of up to 2048
	// records" is a commit); neither is a claim of the draft.
	f.overclaims = overclaims(l, withoutTitles(stripRevisionNotes(l, draft), ev.records), ev)
	f.noDates = !ev.first.IsZero() && !hasDate(draft)
	if len(ev.outside) == 0 {
		// Records marked outside the period are presented as context under
		// their own heading; unmarked ones must not pose as the answer.
		f.offPeriod = emptyPeriod(l, draft)
	}
	return f
}

// inPeriodCounts matches the "(N of M records fall in it)" note of each
// label set, N captured.
var inPeriodCounts = sync.OnceValue(func() map[*labels]*regexp.Regexp {
	m := make(map[*labels]*regexp.Regexp, len(labelSets))
	for _, l := range labelSets {
		m[l] = regexp.MustCompile(`\(` + strings.ReplaceAll(regexp.QuoteMeta(l.InPeriod), "%d", `(\d+)`) + `\)`)
	}
	return m
})

// emptyPeriod is the requested period of a draft whose "Requested period"
// line (see writeDraft) says none of its records falls in it, else "".
func emptyPeriod(l *labels, draft string) string {
	prefix := "- " + l.RequestedPeriod + ": "
	counts := inPeriodCounts()[l]
	for line := range strings.Lines(draft) {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		if m := counts.FindStringSubmatchIndex(line); m != nil && line[m[2]:m[3]] == "0" {
			return strings.TrimSpace(line[len(prefix):m[0]])
		}
	}
	return ""
}

// withoutTitles is draft with the titles of records cut out, as the
// draft quotes them (clipped, see title) and as the source gave them.
func withoutTitles(draft string, records []sdk.Record) string {
	pairs := make([]string, 0, 4*len(records))
	// A title given twice (a record's two forms are mostly one, and many
	// commits share a subject) only slows building the replacer: the first
	// of equal keys wins, and every key is replaced by "".
	seen := make(map[string]struct{}, 2*len(records))
	for _, r := range records {
		for _, t := range [...]string{title(r), strings.TrimSpace(r.Title)} {
			if _, dup := seen[t]; t != "" && t != r.ID && !dup {
				seen[t] = struct{}{}
				pairs = append(pairs, t, "")
			}
		}
	}
	if len(pairs) == 0 {
		return draft
	}
	return strings.NewReplacer(pairs...).Replace(draft)
}

// overclaims lists count claims larger than the evidence: a draft may count
// a subset, never more records than it was given (or, when it was given a
// selection, than the engine held).
func overclaims(l *labels, draft string, ev evidence) []string {
	var out []string
	seen := map[string]bool{}
	add := func(claim string, n, have int, noun string) {
		if n <= have || seen[claim] {
			return
		}
		seen[claim] = true
		out = append(out, fmt.Sprintf("the draft claims %q but the evidence holds %s", claim, plural(have, noun, noun+"s")))
	}
	for _, c := range countClaims(draft) {
		add(c.text, c.n, ev.holds(c.kind), strings.ReplaceAll(c.kind, "_", " "))
	}
	for _, c := range headingCounts(l, draft) {
		add(c.text, c.n, ev.holds(c.kind), strings.ReplaceAll(c.kind, "_", " "))
	}
	return out
}

// claim is a count the draft states: "7 commits" or "### Commits (7)".
type claim struct {
	text string
	n    int
	kind string // a record kind, or "record" for all records
}

// claimNouns are the nouns a count claim may use, with the kind each counts.
var claimNouns = []struct{ word, kind string }{
	{"records", "record"}, {"record", "record"}, {"commits", sdk.KindCommit}, {"commit", sdk.KindCommit},
	{"issues", sdk.KindIssue}, {"issue", sdk.KindIssue}, {"merge requests", sdk.KindMergeRequest},
	{"merge request", sdk.KindMergeRequest}, {"merge_requests", sdk.KindMergeRequest}, {"merge_request", sdk.KindMergeRequest},
	{"pipelines", sdk.KindPipeline}, {"pipeline", sdk.KindPipeline}, {"documents", sdk.KindDocument}, {"document", sdk.KindDocument},
}

// countClaims finds "N noun" phrases: a whole number, whitespace, and one
// of claimNouns as a whole word, in any case.
func countClaims(s string) []claim {
	var out []claim
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || (i > 0 && isWordByte(s[i-1])) {
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		k := j
		for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
			k++
		}
		n, err := strconv.Atoi(s[i:j])
		if k > j && err == nil {
			for _, noun := range claimNouns {
				end := k + len(noun.word)
				if end <= len(s) && strings.EqualFold(s[k:end], noun.word) && (end == len(s) || !isWordByte(s[end])) {
					out = append(out, claim{text: s[i:end], n: n, kind: noun.kind})
					break
				}
			}
		}
		i = j
	}
	return out
}

// headingCounts finds kind headings with a count: "### Commits (7)".
func headingCounts(l *labels, draft string) []claim {
	var out []claim
	for line := range strings.Lines(draft) {
		line = strings.TrimRight(line, " \t\r\n")
		level := headingLevel(line)
		if level < 2 || !strings.HasSuffix(line, ")") {
			continue
		}
		open := strings.LastIndexByte(line, '(')
		if open < 0 {
			continue
		}
		n, err := strconv.Atoi(line[open+1 : len(line)-1])
		if err != nil || n < 0 {
			continue
		}
		if kind, ok := kindOfHeading(l, strings.TrimSpace(line[level:open])); ok {
			out = append(out, claim{text: strings.TrimSpace(line[level:]), n: n, kind: kind})
		}
	}
	return out
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isWordByte reports an ASCII letter, digit or underscore (a \w byte).
func isWordByte(c byte) bool {
	return isDigit(c) || c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// kindOfHeading maps a kind heading ("Commits", "提交") back to its kind.
func kindOfHeading(l *labels, heading string) (string, bool) {
	for _, set := range []*labels{l, labelSets["en"], labelSets["zh"]} {
		for kind, h := range set.Kinds {
			if strings.EqualFold(h, heading) {
				return kind, true
			}
		}
	}
	return "", false
}

// ids lists records' short IDs in backticks, at most n of them.
func ids(records []sdk.Record, n int) string {
	parts := make([]string, 0, min(n, len(records)))
	for _, r := range records[:min(n, len(records))] {
		parts = append(parts, "`"+displayID(r)+"`")
	}
	s := strings.Join(parts, ", ")
	if len(records) > n {
		s += fmt.Sprintf(" and %d more", len(records)-n)
	}
	return s
}
