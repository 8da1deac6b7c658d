package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
)

// runStep runs st's action, inline or on a worker goroutine. It writes
// only st's out and res* fields: no one reads a running step's output,
// and the coordinator takes the res* fields when it settles the step.
func (r *run) runStep(ctx context.Context, pass int, st *stepState) {
	in, omitted := r.inputs(st)
	var (
		out output
		err error
	)
	switch a := st.action(); a {
	case "retrieve":
		out, err = r.retrieve(ctx, st, in, omitted)
	case "filter", "rank", "aggregate", "stats":
		out, err = r.transform(a, in)
		out.Omitted = omitted // transforms see the records held; the counts of the rest pass through
		if a == "stats" || a == "aggregate" {
			out.Text += omittedText(omitted)
		}
	case "agent":
		out, err = r.agentStep(ctx, pass, st, in, omitted)
	case "effect":
		out = output{Records: in, Omitted: omitted, Text: notExecuted + ": " + r.command()}
	case "":
		out = output{Records: in, Omitted: omitted, Text: "passed " + strconv.Itoa(len(in)) + " record(s) through"}
	default:
		err = fmt.Errorf("step %s: unknown action %q (want retrieve, filter, rank, aggregate, stats, agent or effect)", st.id, a)
	}
	st.out = out
	switch {
	case err != nil:
		st.resStatus, st.resErr = engine.StatusFailed, err
	case (out.Verdict == sdk.VerdictReject || len(out.Search) > 0) && st.role() == sdk.RoleWriter:
		st.resStatus = engine.StatusInvalid // the critic sent the draft back, or the analyst asked for more data
	default:
		st.resStatus = engine.StatusCompleted
	}
}

// inputs are the records of st's dependencies, in dependency order, each
// record once, at most loop.max_records of them, and the counts of the
// rest.
func (r *run) inputs(st *stepState) ([]sdk.Record, tally) {
	h := newHeld(r.loop.MaxRecords)
	for _, d := range st.deps {
		dep := r.byID[d]
		if dep == nil || dep.status != engine.StatusCompleted {
			continue
		}
		h.merge(dep.out.Records, dep.out.Omitted)
	}
	recs, omitted := h.done()
	if len(recs) == 0 {
		recs = nil
	}
	return recs, omitted
}

// omittedText says, for a transform's summary, how many records beyond
// the ones held were counted.
func omittedText(t tally) string {
	if n := t.count(); n > 0 {
		return fmt.Sprintf(" (of the records held; %d more beyond loop.max_records are counted, not held)", n)
	}
	return ""
}

// inputText is the text output of st's dependencies (a draft to review).
func (r *run) inputText(st *stepState) string {
	var parts []string
	for _, d := range st.deps {
		if dep := r.byID[d]; dep != nil && dep.status == engine.StatusCompleted && dep.out.Text != "" {
			parts = append(parts, dep.out.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// recordStep writes st's run into the pass, the trace and the progress view.
func (r *run) recordStep(p *history.Pass, st *stepState) {
	p.Steps = append(p.Steps, history.StepRun{ID: st.id, Intent: st.hyp.Intent, Name: st.hyp.Name, Action: st.action(), Role: st.role(),
		Status: st.status, Attempt: st.attempts, Filters: r.stepFilters(st), Records: len(st.out.Records),
		Dropped: st.out.Dropped, Flagged: st.out.Flagged, Verdict: st.out.Verdict, Output: summary(st.out.Text, 200),
		Error: errText(st.err), Partial: r.partial(st), AgentCalls: st.out.Calls,
		StartedAt: st.started, EndedAt: st.ended, DurationMS: st.ended.Sub(st.started).Milliseconds(), StartSeq: st.startSeq, EndSeq: st.endSeq})
	sr := &p.Steps[len(p.Steps)-1]

	u := trace.Update{Outcome: trace.Success, Evidence: append([]string{strconv.Itoa(len(st.out.Records)) + " record(s)"}, st.out.Notes...)}
	switch st.status {
	case engine.StatusFailed:
		u.Outcome, u.Error = trace.Failed, sr.Error
	case engine.StatusInvalid:
		u.Outcome = trace.Partial
	case engine.StatusCompleted:
		if sr.Partial != "" {
			u.Outcome, u.Error = trace.Partial, sr.Partial
		}
	}
	if st.out.Verdict != "" {
		u.Evidence = append(u.Evidence, "critic verdict "+st.out.Verdict)
	}
	if st.out.Answer != nil && st.status == engine.StatusCompleted {
		u.Fulfills = []string{"report"}
	}
	for _, rec := range st.out.Records[:min(len(st.out.Records), 5)] {
		u.Attachments = append(u.Attachments, map[string]any{"type": "record", "id": rec.ID, "source": rec.Source})
	}
	_ = r.trace.Update(st.entry, u)
	r.notify(Event{Kind: "end", Pass: p.Number, Step: st.id, Description: st.hyp.Description, Status: string(st.status), Detail: sr.Error})
}

// partial says why completed step st has only part of its evidence: the
// failures of its source calls, each a sentence, that its effect was not
// executed, that it had nothing to retrieve (see unserved) or that its
// optional retrievals found nothing; "" when none of these.
func (r *run) partial(st *stepState) string {
	if st.status == engine.StatusCompleted && st.action() == string(engine.ActionEffect) {
		return notExecuted + ": nous does not change external systems"
	}
	if why := r.unserved(st); why != "" && st.status == engine.StatusCompleted {
		return "not retrieved: " + why
	}
	if why := cmp.Or(r.irrelevant(st), r.foundNothing(st)); why != "" {
		return why
	}
	if st.status != engine.StatusCompleted || len(st.out.Failed) == 0 {
		return ""
	}
	texts := make([]string, len(st.out.Failed))
	for i, f := range st.out.Failed {
		texts[i] = r.failureText(f, "the step keeps them")
	}
	return strings.Join(texts, " ")
}

// stepFilters is the effective filters of a retrieve step, by key.
func (r *run) stepFilters(st *stepState) map[string][]string {
	if st.action() != "retrieve" {
		return nil
	}
	out := map[string][]string{}
	for _, pi := range st.plans {
		if pi < 0 || pi >= len(r.plan.Retrieval.Plans) {
			continue
		}
		for _, f := range st.filters(r.plan.Retrieval.Plans[pi].Filters) {
			if _, ok := out[f.Key]; !ok {
				out[f.Key] = slices.Clone(f.Values)
			}
		}
	}
	return out
}

// summary shortens s to one line of at most n runes.
func summary(s string, n int) string {
	if len(s) <= n && singleSpaced(s) {
		return s // already short and single-spaced: nothing to copy
	}
	// strings.Join(strings.Fields(s), " "), joined only as far as its
	// first n+1 runes: a long report is not split whole to keep n.
	var b strings.Builder
	runes := 0
	for rest := s; runes <= n; {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if rest == "" {
			break
		}
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			end = len(rest)
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
			runes++
		}
		b.WriteString(rest[:end])
		runes += utf8.RuneCountInString(rest[:end])
		rest = rest[end:]
	}
	if runes > n {
		return clip(b.String(), n)
	}
	return b.String()
}

// singleSpaced reports whether s is ASCII words separated by single spaces, as
// strings.Join(strings.Fields(s), " ") would leave it.
func singleSpaced(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80 || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' '):
			return false
		}
	}
	return true
}
