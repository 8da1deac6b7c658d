package template

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

// maxTallies is how many authors or projects an overview names.
const maxTallies = 5

// writeDraft renders the extractive Markdown draft: an overview with counts,
// authors, projects and time span, one section per kind naming each record,
// and a Sources section with every listed record's URL.
func writeDraft(l *labels, query string, in sdk.AnalystInput, ev evidence, maxItems int) string {
	var b strings.Builder
	heading := l.Answer
	if q := text.OneLine(query); q != "" {
		heading += ": " + text.Clip(q, 100)
	}
	if len(ev.records) == 0 && len(ev.outside) > 0 {
		// An empty period: say so first; the nearest activity is context.
		fmt.Fprintf(&b, "## %s\n\n%s\n", heading, emptyPeriodLine(l, ev, in.Temporal))
		listed := nearestSection(&b, l, ev, maxItems)
		b.WriteString(sourcesSection(l, listed))
		return b.String()
	}
	fmt.Fprintf(&b, "## %s\n\n%s\n\n", heading, overview(l, ev))
	if authors := ev.authorTallies(); len(authors) > 0 {
		fmt.Fprintf(&b, "- %s: %s\n", l.TopAuthors, formatTallies(authors))
	}
	if len(ev.projects) > 0 {
		// The engine does not count projects: they are the listed records'.
		heading := l.Projects
		if ev.partial() {
			heading = fmt.Sprintf(l.ProjectsSample, len(ev.records))
		}
		fmt.Fprintf(&b, "- %s: %s\n", heading, formatTallies(ev.projects))
	}
	if span := timeSpan(ev); span != "" {
		fmt.Fprintf(&b, "- %s: %s\n", l.TimeSpan, span)
	}
	if t := in.Temporal; t != nil && (!t.Since.IsZero() || !t.Until.IsZero()) {
		period := dayOr(t.Since, "…") + " – " + lastDayOr(t.Until, "…")
		if len(t.Kinds) > 0 {
			period = fmt.Sprintf(l.PeriodFor, period, kindNouns(l, t.Kinds))
		}
		fmt.Fprintf(&b, "- %s: %s (%s)\n", l.RequestedPeriod, period, ev.inPeriodPhrase(l, *t))
	}
	// When every record is flagged, say so once instead of on every line.
	allFlagged := allFlagged(ev.records)
	if allFlagged {
		fmt.Fprintf(&b, "- %s: "+ev.sampled(l.AllFlagged, l.AllFlaggedSample)+"\n", l.SourceTiers, len(ev.records), sourceTypes(ev.records))
	}
	writeChurn(&b, l, query, ev)
	var listed []sdk.Record
	for _, g := range ev.groups {
		n := ev.holds(g.kind)
		fmt.Fprintf(&b, "\n### %s (%d)\n\n", l.kindHeading(g.kind), n)
		writeStates(&b, l, g, ev.partial(), !allFlagged)
		shown := g.records[:min(len(g.records), maxItems)]
		for _, r := range shown {
			b.WriteString("- " + recordLine(r, !allFlagged) + "\n")
			if g.kind == sdk.KindRelease && len(shown) <= maxNotes {
				writeNotes(&b, r.Body)
			}
		}
		if more := n - len(shown); more > 0 {
			fmt.Fprintf(&b, "- "+l.More+"\n", more)
		}
		listed = append(listed, shown...)
	}
	listed = append(listed, nearestSection(&b, l, ev, maxItems)...)
	b.WriteString(sourcesSection(l, listed))
	return b.String()
}

// Bounds of the release notes a draft quotes: "what is in the latest
// release?" is answered by them, a list of releases by their names.
const (
	maxNotes      = 3 // releases listed at most, for their notes to be quoted
	maxNoteLines  = 40
	maxNoteLength = 4000
)

// writeNotes quotes a release's notes under its line, bounded.
func writeNotes(b *strings.Builder, body string) {
	body = strings.TrimSpace(text.Clip(body, maxNoteLength))
	if body == "" {
		return
	}
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	if len(lines) > maxNoteLines {
		lines = append(lines[:maxNoteLines], "…")
	}
	for _, line := range lines {
		b.WriteString(strings.TrimRight("  > "+line, " ") + "\n")
	}
}

// finishedStates are the states of a CI run that has an outcome (GitHub's
// conclusions, GitLab's final pipeline statuses).
var finishedStates = map[string]bool{"success": true, "failure": true, "failed": true, "cancelled": true, "canceled": true,
	"skipped": true, "timed_out": true, "action_required": true, "neutral": true, "stale": true}

// writeStates tallies a group's records by their "state" field (open,
// merged, success, failure, …) and, for CI runs, names the newest one that
// finished: what "is CI green?" asks.
func writeStates(b *strings.Builder, l *labels, g kindGroup, sample, tierFlags bool) {
	states := map[string]int{}
	for _, r := range g.records {
		if s, ok := r.Fields["state"].(string); ok && s != "" {
			states[s]++
		}
	}
	if len(states) == 0 {
		return
	}
	label := l.States
	if sample {
		label = fmt.Sprintf(l.StatesSample, len(g.records))
	}
	fmt.Fprintf(b, "- %s: %s\n", label, formatTallies(tallies(states)))
	if g.kind != sdk.KindPipeline {
		return
	}
	for _, r := range g.records {
		if s, _ := r.Fields["state"].(string); finishedStates[s] {
			fmt.Fprintf(b, "- %s: %s\n", l.LatestFinished, recordLine(r, tierFlags))
			return
		}
	}
}

// nearestSection lists the records outside the asked period, under their
// own heading, and returns those it listed.
func nearestSection(b *strings.Builder, l *labels, ev evidence, maxItems int) []sdk.Record {
	if len(ev.outside) == 0 {
		return nil
	}
	fmt.Fprintf(b, "\n### %s (%d)\n\n", l.Nearest, len(ev.outside))
	listed := ev.outside[:min(len(ev.outside), maxItems)]
	for _, r := range listed {
		b.WriteString("- " + recordLine(r, true) + "\n")
	}
	if n := len(ev.outside) - len(listed); n > 0 {
		fmt.Fprintf(b, "- "+l.More+"\n", n)
	}
	return listed
}

// emptyPeriodLine says that the asked period holds nothing, and what is
// nearest to it: "No commits in the requested period (2024-12-23 –
// 2024-12-29); the most recent before it is `abc1234` fix … (2024-11-02)."
func emptyPeriodLine(l *labels, ev evidence, t *sdk.TimeRange) string {
	period := "…"
	if t != nil && (!t.Since.IsZero() || !t.Until.IsZero()) {
		period = dayOr(t.Since, "…") + " – " + lastDayOr(t.Until, "…")
	}
	s := fmt.Sprintf(l.NoneInPeriod, kindNouns(l, recordKinds(ev.outside)), period)
	near, which := ev.outside[0], l.NearestBefore
	if v, _ := near.Fields[fieldOutside].(string); v == "nearest_after" {
		near, which = ev.outside[len(ev.outside)-1], l.NearestAfter
	}
	ref := "`" + displayID(near) + "` " + title(near)
	if d := day(near.Time); d != "" {
		ref += " (" + d + ")"
	}
	return s + "; " + fmt.Sprintf(which, ref) + "."
}

// recordKinds are the kinds of records in kindOrder, then sorted.
func recordKinds(records []sdk.Record) []string {
	var kinds []string
	for _, r := range records {
		if !slices.Contains(kinds, r.Kind) {
			kinds = append(kinds, r.Kind)
		}
	}
	slices.SortFunc(kinds, func(a, b string) int { return cmp.Or(cmp.Compare(kindRank(a), kindRank(b)), cmp.Compare(a, b)) })
	return kinds
}

// kindNouns names kinds in a sentence: "commits and issues" ("提交、議題").
func kindNouns(l *labels, kinds []string) string {
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		if l == labelSets["zh"] {
			parts = append(parts, l.kindHeading(k))
			continue
		}
		n := strings.ReplaceAll(k, "_", " ")
		if n == "" {
			n = "record"
		}
		parts = append(parts, n+"s")
	}
	if len(parts) == 0 {
		if l == labelSets["zh"] {
			return l.Records
		}
		return "records"
	}
	if l == labelSets["zh"] {
		return strings.Join(parts, "、")
	}
	return joinAnd(parts)
}

// overview is the one-sentence summary: how many records of which kinds,
// when, of every record the step held.
func overview(l *labels, ev evidence) string {
	t := countsOf(ev)
	parts := t.phrases(l)
	if l == labelSets["zh"] {
		s := fmt.Sprintf("共 %d %s", t.total, l.Records)
		if span := timeSpan(ev); span != "" {
			s += "（" + span + "）"
		}
		return s + "：" + strings.Join(parts, "、") + t.selectionNote(l) + "。"
	}
	s := fmt.Sprintf("Found %s", plural(t.total, "record", "records"))
	if span := timeSpan(ev); span != "" {
		s += " dated " + span
	}
	return s + ": " + joinAnd(parts) + t.selectionNote(l) + "."
}

// countPhrase is "7 commits" (or "提交 7").
func countPhrase(l *labels, kind string, n int) string {
	if l == labelSets["zh"] {
		return l.kindHeading(kind) + " " + strconv.Itoa(n)
	}
	noun := strings.ReplaceAll(kind, "_", " ")
	if noun == "" {
		noun = "other"
	}
	return plural(n, noun, noun+"s")
}

// recordLine names one record: short ID, title, author and date (the start
// of its text when it has neither) and, with tierFlags, a flag when its
// source is unknown or low-tier.
func recordLine(r sdk.Record, tierFlags bool) string {
	var b strings.Builder
	b.WriteString("`" + displayID(r) + "` " + title(r))
	var meta []string
	if r.Author != "" {
		meta = append(meta, text.OneLine(r.Author))
	}
	if d := day(r.Time); d != "" {
		meta = append(meta, d)
	}
	if len(meta) == 0 && r.Title != "" && strings.TrimSpace(r.Body) != "" {
		// Neither author nor date (a documentation section): what it says.
		meta = append(meta, text.Clip(text.OneLine(r.Body), 160))
	}
	if len(meta) > 0 {
		b.WriteString(" — " + strings.Join(meta, ", "))
	}
	if tierFlags && lowTier(r) {
		b.WriteString(" " + tierTag(r))
	}
	return b.String()
}

// sourcesSection lists records with their URLs, numbered.
func sourcesSection(l *labels, records []sdk.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### %s\n\n", l.Sources)
	for i, r := range records {
		fmt.Fprintf(&b, "%d. `%s` %s — %s\n", i+1, displayID(r), title(r), urlOr(l, r))
	}
	return b.String()
}

func urlOr(l *labels, r sdk.Record) string {
	if r.URL != "" {
		return r.URL
	}
	return fmt.Sprintf("(%s, %s)", l.NoURL, r.Source)
}

// tierTag marks a record from an unknown or low-tier source.
func tierTag(r sdk.Record) string {
	if r.Tier == 0 {
		return "[tier unknown | " + sourceType(r) + "]"
	}
	return fmt.Sprintf("[Tier %d | %s]", r.Tier, sourceType(r))
}

// inPeriod counts the records dated inside the half-open range t.
func inPeriod(records []sdk.Record, t sdk.TimeRange) int {
	n := 0
	for _, r := range records {
		if !r.Time.IsZero() && !r.Time.Before(t.Since) && (t.Until.IsZero() || r.Time.Before(t.Until)) {
			n++
		}
	}
	return n
}

func allFlagged(records []sdk.Record) bool {
	for _, r := range records {
		if !lowTier(r) {
			return false
		}
	}
	return len(records) > 0
}

// sourceTypes lists the distinct source types of records, sorted.
func sourceTypes(records []sdk.Record) string {
	var types []string
	for _, r := range records {
		if t := sourceType(r); !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	slices.Sort(types)
	return strings.Join(types, ", ")
}

func timeSpan(ev evidence) string {
	first, last := ev.first, ev.last
	if ev.partial() && !ev.whole.Earliest.IsZero() {
		first, last = ev.whole.Earliest, ev.whole.Latest
	}
	switch {
	case first.IsZero():
		return ""
	case day(first) == day(last):
		return day(first)
	}
	return day(first) + " – " + day(last)
}

func formatTallies(ts []tally) string {
	parts := make([]string, 0, min(len(ts), maxTallies))
	for _, t := range ts[:min(len(ts), maxTallies)] {
		parts = append(parts, fmt.Sprintf("%s (%d)", text.OneLine(t.name), t.n))
	}
	return strings.Join(parts, ", ")
}

func dayOr(t time.Time, fallback string) string {
	if t.IsZero() {
		return fallback
	}
	return day(t)
}

// lastDayOr is the last day before the exclusive bound until: a range
// ending at midnight on the 16th ends, for a reader, on the 15th.
func lastDayOr(until time.Time, fallback string) string {
	if until.IsZero() {
		return fallback
	}
	return day(until.Add(-time.Nanosecond))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// joinAnd joins "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
