package template

import (
	"fmt"
	"strconv"
	"strings"
	"time"

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
	if q := oneLine(query); q != "" {
		heading += ": " + clip(q, 100)
	}
	fmt.Fprintf(&b, "## %s\n\n%s\n\n", heading, overview(l, ev))
	if len(ev.authors) > 0 {
		fmt.Fprintf(&b, "- %s: %s\n", l.TopAuthors, formatTallies(ev.authors))
	}
	if len(ev.projects) > 0 {
		fmt.Fprintf(&b, "- %s: %s\n", l.Projects, formatTallies(ev.projects))
	}
	if span := timeSpan(ev); span != "" {
		fmt.Fprintf(&b, "- %s: %s\n", l.TimeSpan, span)
	}
	if in.Temporal != nil && (!in.Temporal.Since.IsZero() || !in.Temporal.Until.IsZero()) {
		fmt.Fprintf(&b, "- Requested period: %s – %s\n", dayOr(in.Temporal.Since, "…"), dayOr(in.Temporal.Until, "…"))
	}
	var listed []sdk.Record
	for _, g := range ev.groups {
		fmt.Fprintf(&b, "\n### %s (%d)\n\n", l.kindHeading(g.kind), len(g.records))
		for i, r := range g.records {
			if i == maxItems {
				fmt.Fprintf(&b, "- "+l.More+"\n", len(g.records)-maxItems)
				break
			}
			b.WriteString("- " + recordLine(r) + "\n")
			listed = append(listed, r)
		}
	}
	b.WriteString(sourcesSection(l, listed))
	return b.String()
}

// overview is the one-sentence summary: how many records of which kinds, when.
func overview(l *labels, ev evidence) string {
	parts := make([]string, 0, len(ev.groups))
	for _, g := range ev.groups {
		parts = append(parts, countPhrase(l, g.kind, len(g.records)))
	}
	if l == labelSets["zh"] {
		s := fmt.Sprintf("共 %d %s", len(ev.records), l.Records)
		if span := timeSpan(ev); span != "" {
			s += "（" + span + "）"
		}
		return s + "：" + strings.Join(parts, "、") + "。"
	}
	s := fmt.Sprintf("Found %s", plural(len(ev.records), "record", "records"))
	if span := timeSpan(ev); span != "" {
		s += " dated " + span
	}
	return s + ": " + joinAnd(parts) + "."
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

// recordLine names one record: short ID, title, author, date and a tier flag.
func recordLine(r sdk.Record) string {
	var b strings.Builder
	b.WriteString("`" + shortID(r.ID) + "` " + title(r))
	var meta []string
	if r.Author != "" {
		meta = append(meta, oneLine(r.Author))
	}
	if d := day(r.Time); d != "" {
		meta = append(meta, d)
	}
	if len(meta) > 0 {
		b.WriteString(" — " + strings.Join(meta, ", "))
	}
	if flagged(r) {
		b.WriteString(" " + tierTag(r))
	}
	return b.String()
}

// sourcesSection lists records with their URLs, numbered.
func sourcesSection(l *labels, records []sdk.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### %s\n\n", l.Sources)
	for i, r := range records {
		fmt.Fprintf(&b, "%d. `%s` %s — %s\n", i+1, shortID(r.ID), title(r), urlOr(l, r))
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

func timeSpan(ev evidence) string {
	switch {
	case ev.first.IsZero():
		return ""
	case day(ev.first) == day(ev.last):
		return day(ev.first)
	}
	return day(ev.first) + " – " + day(ev.last)
}

func formatTallies(ts []tally) string {
	parts := make([]string, 0, min(len(ts), maxTallies))
	for _, t := range ts[:min(len(ts), maxTallies)] {
		parts = append(parts, fmt.Sprintf("%s (%d)", oneLine(t.name), t.n))
	}
	return strings.Join(parts, ", ")
}

func dayOr(t time.Time, fallback string) string {
	if t.IsZero() {
		return fallback
	}
	return day(t)
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
