package template

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

// analyze runs the analyst: research when there is no review, revise when
// the critic sent one back.
func analyze(cfg Config, in sdk.AnalystInput, records []sdk.Record) sdk.AnalystOutput {
	if in.Review != nil && strings.TrimSpace(in.Draft) != "" {
		return revise(cfg, in, records)
	}
	return research(cfg, in, records)
}

// research drafts an extractive answer from the records, or asks for a
// search when there are none it may use.
func research(cfg Config, in sdk.AnalystInput, records []sdk.Record) sdk.AnalystOutput {
	l := labelsFor(cfg.Language)
	usable, dropped := usableRecords(in.Mode, records)
	var steps []string
	steps = append(steps, fmt.Sprintf("Read %s of context for %q in %s mode.", plural(len(records), "record", "records"), text.OneLine(in.Query), modeName(in.Mode)))
	if in.Task != "" {
		steps = append(steps, fmt.Sprintf("Worked on the task %q.", text.OneLine(in.Task)))
	}
	if len(dropped) > 0 {
		steps = append(steps, fmt.Sprintf("Left out %s from unknown or tier ≥ 3 sources, which strict mode does not trust: %s.",
			plural(len(dropped), "record", "records"), ids(dropped, 5)))
	}
	if len(usable) == 0 {
		steps = append(steps, "No usable evidence: asked for a new search.")
		return sdk.AnalystOutput{
			Status:         sdk.AnalystSearchRequired,
			NewQueries:     newQueries(in),
			Draft:          "",
			ReasoningChain: numbered(steps),
		}
	}
	ev := gather(usable).with(in.Evidence)
	steps = append(steps, evidenceSteps(ev, cfg.MaxItems)...)
	return sdk.AnalystOutput{
		Status:         sdk.AnalystDraftReady,
		NewQueries:     []string{},
		Draft:          writeDraft(l, in.Query, in, ev, cfg.MaxItems),
		ReasoningChain: numbered(steps),
	}
}

// revise addresses a review: a draft whose evidence is wrong (nothing
// cited, counts the records do not support, low-tier sources in strict
// mode) is rebuilt from the records; otherwise the missing parts are added.
// Either way the review's points and gaps are answered at the end.
func revise(cfg Config, in sdk.AnalystInput, records []sdk.Record) sdk.AnalystOutput {
	l := labelsFor(cfg.Language)
	usable, _ := usableRecords(in.Mode, records)
	if len(usable) == 0 {
		out := research(cfg, in, records)
		out.ReasoningChain = numbered([]string{"The review asked for a revision but no usable evidence is available; asked for a new search."})
		return out
	}
	ev := gather(usable).with(in.Evidence)
	all := ev
	if !sameRecords(usable, records) {
		all = gather(records).with(in.Evidence)
	}
	base := stripRevisionNotes(l, in.Draft)
	f := inspect(l, base, all)
	var done, steps []string
	steps = append(steps, fmt.Sprintf("Received a %s review: %s", in.Review.Status, text.OneLine(in.Review.Critique)))
	switch {
	case len(f.cited) == 0, len(f.overclaims) > 0, in.Mode == "strict" && len(f.lowTier) > 0:
		base = writeDraft(l, in.Query, in, ev, cfg.MaxItems)
		done = append(done, "Rebuilt the draft from the records so every statement and count is backed by a cited record.")
		steps = append(steps, "The draft's evidence did not hold up (no citations, unsupported counts or untrusted tiers): rebuilt it from the records.")
	default:
		base = strings.TrimRight(base, "\n") + "\n"
		if f.noDates {
			if span := timeSpan(ev); span != "" {
				base += fmt.Sprintf("\n- %s: %s\n", l.TimeSpan, span)
				done = append(done, "Added the time span of the evidence.")
			}
		}
		if f.noSources {
			base += sourcesSection(l, listedRecords(ev, cfg.MaxItems))
			done = append(done, "Added a Sources section with the URL of every listed record.")
		}
		steps = append(steps, "Kept the draft and added what the review found missing.")
	}
	for _, s := range in.Review.Suggestions {
		done = append(done, "Considered: "+text.OneLine(s))
	}
	base += revisionNotes(l, done, in.Review.LogicalGaps)
	steps = append(steps, evidenceSteps(ev, cfg.MaxItems)...)
	return sdk.AnalystOutput{
		Status:         sdk.AnalystDraftReady,
		NewQueries:     []string{},
		Draft:          base,
		ReasoningChain: numbered(steps),
	}
}

// usableRecords keeps what the mode trusts: strict drops unknown and tier ≥ 3.
func usableRecords(mode string, records []sdk.Record) (usable, dropped []sdk.Record) {
	if mode != "strict" {
		return records, nil
	}
	for _, r := range records {
		if lowTier(r) {
			dropped = append(dropped, r)
		} else {
			usable = append(usable, r)
		}
	}
	return usable, dropped
}

// sameRecords reports whether a and b are one slice, as usableRecords
// returns its input outside strict mode: its evidence need not be
// gathered twice (evidence is never modified).
func sameRecords(a, b []sdk.Record) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// listedRecords are the records a draft lists: at most maxItems per kind.
func listedRecords(ev evidence, maxItems int) []sdk.Record {
	var out []sdk.Record
	for _, g := range ev.groups {
		out = append(out, g.records[:min(len(g.records), maxItems)]...)
	}
	return out
}

// evidenceSteps explains how the draft was built from ev.
func evidenceSteps(ev evidence, maxItems int) []string {
	counts := countsOf(ev)
	kinds := make([]string, 0, len(counts.kinds))
	for _, k := range counts.kinds {
		kinds = append(kinds, fmt.Sprintf("%d %s", k.n, k.name))
	}
	projects := plural(len(ev.projects), "project", "projects")
	if ev.partial() {
		projects += fmt.Sprintf(" in the newest %d records", len(ev.records))
	}
	steps := []string{
		"Grouped the evidence by kind: " + strings.Join(kinds, ", ") + ".",
		fmt.Sprintf("Listed up to %d records per kind, newest first, each cited by ID with its author and date, and their URLs under Sources.", maxItems),
		fmt.Sprintf("Tallied %s and %s.", counts.authorPhrase(), projects),
	}
	if span := timeSpan(ev); span != "" {
		steps = append(steps, "The evidence spans "+span+".")
	}
	var low []sdk.Record
	for _, r := range ev.records {
		if lowTier(r) {
			low = append(low, r)
		}
	}
	if len(low) > 0 {
		steps = append(steps, fmt.Sprintf("Flagged %s from unknown or tier ≥ 3 sources: %s.", plural(len(low), "record", "records"), ids(low, 5)))
	}
	return steps
}

// newQueries proposes searches for a question with no usable evidence:
// the task, the question, and the question's keywords alone.
func newQueries(in sdk.AnalystInput) []string {
	var qs []string
	for _, q := range []string{text.OneLine(in.Task), text.OneLine(in.Query), keywords(in.Query)} {
		if q != "" && !slices.Contains(qs, q) {
			qs = append(qs, q)
		}
	}
	if qs == nil {
		qs = []string{}
	}
	return qs
}

var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "what": true, "which": true, "who": true, "how": true, "many": true,
	"is": true, "are": true, "was": true, "were": true, "in": true, "on": true, "of": true, "for": true,
	"to": true, "this": true, "that": true, "does": true, "did": true, "do": true, "has": true, "have": true,
	"last": true, "week": true, "month": true, "year": true, "today": true, "yesterday": true,
}

// keywords drops stop words and time words to broaden a query.
func keywords(q string) string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(q)) {
		w = strings.Trim(w, "?!.,;:\"'()")
		if w != "" && !stopwords[w] {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// revisionNotes answers the review: what was done and which gaps remain.
func revisionNotes(l *labels, done, gaps []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### %s\n\n", l.Addressed)
	for _, d := range done {
		b.WriteString("- " + d + "\n")
	}
	if len(gaps) > 0 {
		fmt.Fprintf(&b, "\n### %s\n\n", l.Gaps)
		for _, g := range gaps {
			b.WriteString("- " + text.OneLine(g) + "\n")
		}
	}
	return b.String()
}

// stripRevisionNotes removes the notes an earlier revision appended, so
// revising twice does not stack them.
func stripRevisionNotes(l *labels, draft string) string {
	if i := strings.Index(draft, "\n### "+l.Addressed+"\n"); i >= 0 {
		return draft[:i+1]
	}
	return draft
}

func modeName(mode string) string {
	if mode == "" {
		return "default"
	}
	return mode
}

func numbered(steps []string) string {
	var b strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
	}
	return strings.TrimRight(b.String(), "\n")
}
