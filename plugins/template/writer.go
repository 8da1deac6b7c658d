package template

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

// Confidence levels of a final report.
const (
	confidenceHigh   = "High"
	confidenceMedium = "Medium"
	confidenceLow    = "Low"
)

// compose is the writer: compose(draft, review, context, mode) → a Markdown
// report with a title, a summary, the draft as details, the sources with
// URLs, the review's notes when it warned, and what the mode did to tiers.
func compose(cfg Config, in sdk.WriterInput, records []sdk.Record) sdk.WriterOutput {
	l := labelsFor(cfg.Language)
	// The summary counts the records the analyst may use (strict mode
	// leaves out low-tier ones), so it agrees with the draft's counts; a
	// draft may still cite any record, and the mode notes then say so.
	usable, _ := usableRecords(in.Mode, records)
	ev := gather(usable).with(in.Evidence)
	all := ev
	if !sameRecords(usable, records) {
		all = gather(records)
	}
	used := citedOrAll(in.Draft, all, ev)
	conf, reason := grade(l, in, ev, used)

	var b strings.Builder
	heading := l.Report
	if q := text.OneLine(in.Query); q != "" {
		heading += ": " + text.Clip(q, 100)
	}
	fmt.Fprintf(&b, "# %s\n\n## %s\n\n", heading, l.Summary)
	// The summary counts all the evidence; the sources list what the draft cites.
	summary := ""
	switch {
	case len(ev.records) > 0 && countingQuestion().MatchString(in.Query):
		summary = countSentence(l, ev, in.Temporal)
	case len(ev.records) > 0:
		summary = overview(l, ev)
	case len(ev.outside) > 0:
		summary = emptyPeriodLine(l, ev, in.Temporal)
	}
	if summary != "" {
		b.WriteString(summary + " ")
	}
	fmt.Fprintf(&b, "%s: %s (%s).\n", l.Confidence, conf, reason)
	draft := in.Draft
	if strings.TrimSpace(draft) == "" && len(ev.records)+len(ev.outside) > 0 {
		// No analyst ran: the writer drafts from the records itself, so a
		// rules file with only a writer still answers with the evidence.
		draft = writeDraft(l, in.Query, sdk.AnalystInput{Query: in.Query, Mode: in.Mode, Temporal: in.Temporal}, ev, cfg.MaxItems)
	}
	if details := detailsOf(draft, summary); details != "" {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", l.Details, details)
	}
	sources := make([]string, 0, len(used))
	if len(used) > 0 {
		fmt.Fprintf(&b, "\n## %s\n\n%s", l.Sources, sourcesList(l, used))
		for _, r := range used {
			sources = append(sources, sourceRef(r))
		}
	}
	if in.Review != nil && in.Review.Status != sdk.VerdictPass {
		b.WriteString(reviewNotes(l, in.Review))
	}
	b.WriteString(modeNotes(l, in.Mode, used))
	return sdk.WriterOutput{
		FinalReport:     b.String(),
		SourcesUsed:     sources,
		ConfidenceLevel: conf,
	}
}

// citedOrAll is the records of all the draft cites, or every usable record
// when it cites none, in the order the draft lists them.
func citedOrAll(draft string, all, usable evidence) []sdk.Record {
	var used []sdk.Record
	c := newCitations(draft)
	for _, r := range all.ordered {
		if c.cites(r) {
			used = append(used, r)
		}
	}
	if len(used) == 0 {
		return usable.ordered
	}
	return used
}

// countingQuestion matches a question that asks for a number.
var countingQuestion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(how\s+many|number\s+of|count)\b|多少|幾個|幾筆`)
})

// grade is the report's confidence and why. It never claims more than the
// answer holds: an empty period answered with the nearest activity is Low,
// an answer with caveats (a constraint not applied) at most Medium.
func grade(l *labels, in sdk.WriterInput, ev evidence, used []sdk.Record) (string, string) {
	if len(ev.records) == 0 && len(ev.outside) > 0 {
		return confidenceLow, l.EmptyPeriod
	}
	conf := confidence(in.Review, len(used))
	reason := confidenceReason(in.Review, len(used), len(ev.records))
	if len(in.Caveats) > 0 {
		if conf == confidenceHigh {
			conf = confidenceMedium
		}
		parts := make([]string, len(in.Caveats))
		for i, c := range in.Caveats {
			parts[i] = strings.TrimSuffix(text.OneLine(c), ".")
		}
		reason = fmt.Sprintf(l.Partial, strings.Join(parts, "; ")) + "; " + reason
	}
	return conf, reason
}

// countSentence states the number asked for: "312 commits by 41 authors
// between 2025-01-01 and 2025-06-30", of every record the step held.
func countSentence(l *labels, ev evidence, t *sdk.TimeRange) string {
	counts := countsOf(ev)
	parts := counts.phrases(l)
	period := ""
	if t != nil {
		switch {
		case !t.Since.IsZero() && !t.Until.IsZero():
			period = day(t.Since) + " – " + lastDayOr(t.Until, "")
		case !t.Since.IsZero():
			period = day(t.Since) + " – …"
		case !t.Until.IsZero():
			period = "… – " + lastDayOr(t.Until, "")
		}
	}
	if l == labelSets["zh"] {
		s := strings.Join(parts, "、") + fmt.Sprintf("，%d 位作者", counts.authors)
		if period != "" {
			s += "（" + period + "）"
		}
		return s + counts.selectionNote(l) + "。"
	}
	s := joinAnd(parts)
	if counts.authors > 0 {
		s += " by " + counts.authorPhrase()
	}
	if t != nil {
		switch {
		case !t.Since.IsZero() && !t.Until.IsZero():
			s += " between " + day(t.Since) + " and " + lastDayOr(t.Until, "")
		case !t.Since.IsZero():
			s += " since " + day(t.Since)
		case !t.Until.IsZero():
			s += " until " + lastDayOr(t.Until, "")
		}
	}
	return s + counts.selectionNote(l) + "."
}

// confidence grades the report: High needs a passing review and enough
// evidence; a rejected review or no evidence is Low.
func confidence(rv *sdk.CriticOutput, evidence int) string {
	switch {
	case evidence == 0:
		return confidenceLow
	case rv == nil:
		return confidenceMedium
	case rv.Status == sdk.VerdictPass && evidence >= fewRecords:
		return confidenceHigh
	case rv.Status == sdk.VerdictReject:
		return confidenceLow
	}
	return confidenceMedium
}

func confidenceReason(rv *sdk.CriticOutput, used, total int) string {
	status := "no review"
	if rv != nil {
		status = "review " + rv.Status
	}
	if used < total {
		return fmt.Sprintf("%s, %d of %s cited", status, used, plural(total, "record", "records"))
	}
	return status + ", " + plural(used, "record", "records")
}

// detailsOf is the draft without its title line, the summary line and its
// Sources section (the report has its own), headings demoted one level.
func detailsOf(draft, summary string) string {
	lines := strings.Split(strings.TrimSpace(draft), "\n")
	if level := headingLevel(lines[0]); level == 1 || level == 2 {
		lines = lines[1:]
	}
	var out []string
	skipLevel := 0
	for _, line := range lines {
		level := headingLevel(line)
		if skipLevel > 0 {
			if level == 0 || level > skipLevel {
				continue
			}
			skipLevel = 0
		}
		if level > 0 && hasSourcesHeading(line) {
			skipLevel = level
			continue
		}
		if summary != "" && line == summary {
			continue
		}
		out = append(out, line)
	}
	return strings.TrimSpace(strings.Join(underDetails(out), "\n"))
}

// underDetails shifts headings so the highest is level 3, under the
// report's "## Details".
func underDetails(lines []string) []string {
	top := 0
	for _, line := range lines {
		if n := headingLevel(line); n > 0 && (top == 0 || n < top) {
			top = n
		}
	}
	for i, line := range lines {
		if n := headingLevel(line); n > 0 {
			lines[i] = strings.Repeat("#", min(6, n+3-top)) + line[n:]
		}
	}
	return lines
}

func headingLevel(line string) int {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n == len(line) || line[n] != ' ' {
		return 0
	}
	return n
}

// sourcesList numbers the cited records that have a URL, with their links.
// Records without one are summed up in a line per kind and source: the
// details already name each of them, and a second list would only repeat it.
func sourcesList(l *labels, used []sdk.Record) string {
	var b strings.Builder
	type group struct {
		kind, source string
		records      []sdk.Record
	}
	var noURL []*group
	n := 0
	for _, r := range used {
		if r.URL != "" {
			n++
			fmt.Fprintf(&b, "%d. %s\n", n, sourceLine(r))
			continue
		}
		src := sourceWithTier(r)
		i := slices.IndexFunc(noURL, func(g *group) bool { return g.kind == r.Kind && g.source == src })
		if i < 0 {
			noURL = append(noURL, &group{kind: r.Kind, source: src})
			i = len(noURL) - 1
		}
		noURL[i].records = append(noURL[i].records, r)
	}
	if len(noURL) == 0 {
		return b.String()
	}
	parts := make([]string, 0, len(noURL))
	for _, g := range noURL {
		parts = append(parts, fmt.Sprintf(l.FromSource, countPhrase(l, g.kind, len(g.records)), g.source)+" — "+ids(g.records, 3))
	}
	if n > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s: %s.\n", l.WithoutURL, strings.Join(parts, "; "))
	return b.String()
}

// sourceLine names a source with its link, kind, ID, author, date and tier.
func sourceLine(r sdk.Record) string {
	link := "[" + strings.NewReplacer("[", "(", "]", ")").Replace(title(r)) + "](" + r.URL + ")"
	meta := []string{r.Kind + " `" + displayID(r) + "`"}
	if r.Author != "" {
		meta = append(meta, text.OneLine(r.Author))
	}
	if d := day(r.Time); d != "" {
		meta = append(meta, d)
	}
	meta = append(meta, sourceWithTier(r))
	return link + " — " + strings.Join(meta, ", ")
}

// sourceWithTier is "gitlab, tier 1" (or "tier unknown").
func sourceWithTier(r sdk.Record) string {
	if r.Tier > 0 {
		return fmt.Sprintf("%s, tier %d", r.Source, r.Tier)
	}
	return r.Source + ", tier unknown"
}

// sourceRef is how sources_used names a record: its URL, else its ID.
func sourceRef(r sdk.Record) string {
	if r.URL != "" {
		return r.URL
	}
	return r.ID
}

func reviewNotes(l *labels, rv *sdk.CriticOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## %s\n\n%s\n", l.ReviewNotes, text.OneLine(rv.Critique))
	for _, s := range rv.Suggestions {
		b.WriteString("\n- " + text.OneLine(s))
	}
	for _, g := range rv.LogicalGaps {
		b.WriteString("\n- Gap: " + text.OneLine(g))
	}
	if len(rv.Suggestions)+len(rv.LogicalGaps) > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// modeNotes says what the mode means for the sources the report used.
func modeNotes(l *labels, mode string, used []sdk.Record) string {
	var low []sdk.Record
	for _, r := range used {
		if lowTier(r) {
			low = append(low, r)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n## %s\n\n", l.Mode)
	switch mode {
	case "strict":
		b.WriteString("Mode: strict — only tier 1–2 sources are trusted.")
		if len(low) > 0 {
			fmt.Fprintf(&b, " %s from unknown or tier ≥ 3 sources should not be relied on: %s.", plural(len(low), "record", "records"), ids(low, 10))
		}
	case "monitor":
		fmt.Fprintf(&b, "Mode: monitor — tier 1–2 sources: %d; unknown or tier ≥ 3 sources: %d.", len(used)-len(low), len(low))
	default:
		fmt.Fprintf(&b, "Mode: %s — all sources kept.", modeName(mode))
		if len(low) > 0 {
			fmt.Fprintf(&b, " %d of %d are unknown or tier ≥ 3 and flagged: %s.", len(low), len(used), flaggedList(low, 10))
		} else if len(used) > 0 {
			b.WriteString(" None is flagged.")
		}
	}
	b.WriteString("\n")
	return b.String()
}

func flaggedList(records []sdk.Record, n int) string {
	parts := make([]string, 0, min(n, len(records)))
	for _, r := range records[:min(n, len(records))] {
		parts = append(parts, "`"+displayID(r)+"` "+tierTag(r))
	}
	s := strings.Join(parts, ", ")
	if len(records) > n {
		s += fmt.Sprintf(" and %d more", len(records)-n)
	}
	return s
}
