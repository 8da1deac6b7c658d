package template

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

var (
	// sourcesHeading matches a Sources (or References) heading in English or Chinese.
	sourcesHeading = regexp.MustCompile(`(?im)^#{1,6}\s*(sources|references|來源|資料來源|參考資料)`)
	// countClaim matches "7 commits", "12 records", "2 merge requests".
	countClaim = regexp.MustCompile(`(?i)\b(\d+)\s+(records?|commits?|issues?|merge[ _]requests?|pipelines?|documents?)\b`)
	// headingCount matches a kind heading with a count: "### Commits (7)".
	headingCount = regexp.MustCompile(`(?m)^#{2,6}[ \t]+(.+?)[ \t]+\((\d+)\)[ \t]*$`)
	// dated matches an ISO date.
	dated = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)
)

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
}

// inspect reads draft against ev.
func inspect(l *labels, draft string, ev evidence) findings {
	f := findings{empty: strings.TrimSpace(draft) == ""}
	if f.empty {
		return f
	}
	for _, r := range ev.records {
		if cited(draft, r) {
			f.cited = append(f.cited, r)
			if flagged(r) {
				f.lowTier = append(f.lowTier, r)
			}
		} else {
			f.uncited++
		}
	}
	f.noSources = !sourcesHeading.MatchString(draft)
	// The notes of a revision quote the review's complaints; they are not claims.
	f.overclaims = overclaims(l, stripRevisionNotes(l, draft), ev)
	f.noDates = !ev.first.IsZero() && !dated.MatchString(draft)
	return f
}

// overclaims lists count claims larger than the evidence: a draft may count
// a subset, never more records than it was given.
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
	for _, m := range countClaim.FindAllStringSubmatch(draft, -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		noun := strings.ToLower(strings.TrimSuffix(strings.ReplaceAll(m[2], "_", " "), "s"))
		have := len(ev.records)
		if noun != "record" {
			have = ev.count(strings.ReplaceAll(noun, " ", "_"))
		}
		add(m[0], n, have, noun)
	}
	for _, m := range headingCount.FindAllStringSubmatch(draft, -1) {
		kind, ok := kindOfHeading(l, m[1])
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(m[2]); err == nil {
			add(strings.TrimLeft(m[0], "# "), n, ev.count(kind), strings.ReplaceAll(kind, "_", " "))
		}
	}
	return out
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
		parts = append(parts, "`"+shortID(r.ID)+"`")
	}
	s := strings.Join(parts, ", ")
	if len(records) > n {
		s += fmt.Sprintf(" and %d more", len(records)-n)
	}
	return s
}
