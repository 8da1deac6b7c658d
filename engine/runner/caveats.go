package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/timerange"
)

// judge makes the result's status tell the truth and says why in
// res.Caveats. A run is failed when nothing answers the question: no
// source answered any retrieval, or a writer was planned and no report
// came out. It is partial when it asked for an effect nous does not
// perform (said first), when it answers a broadened question (an empty
// period answered with the nearest activity), when the question names a
// path no source has, when a constraint of the interpretation was not
// applied, when a source failed or is not
// configured while others answered, or when a source's history is cut
// short inside the asked period. Failures come first, then the partial
// reasons in the order the report should read them.
func (r *run) judge(res *Result) {
	failed := r.failures(res)
	if res.Status == ResultCancelled {
		// What a cancelled run lacks is the cancellation's doing, not the
		// sources' or the writer's: it says so first, and only so.
		failed = []string{r.cancelled()}
	}
	partial := statsCaveats(res)
	partial = append(partial, r.effectCaveats()...)
	partial = append(partial, r.validationCaveats()...)
	partial = append(partial, r.emptyCaveats()...)
	partial = append(partial, r.missingCaveats()...)
	partial = append(partial, r.periodCaveats(res)...)
	partial = append(partial, r.constraintCaveats()...)
	partial = append(partial, r.sourceCaveats()...)
	partial = append(partial, r.coverageCaveats()...)
	res.Caveats = append(failed, partial...)
	pending := res.Pending
	switch {
	case res.Status == ResultCancelled:
	case len(failed) > 0:
		res.Status = ResultFailed
	case res.Status == ResultSuccess && (len(partial) > 0 || len(pending) > 0):
		res.Status = ResultPartial
	}
	if res.Status != ResultSuccess && len(res.Caveats) == 0 {
		res.Caveats = r.stepCaveats(res, pending)
	}
	if a := res.Answer; a != nil {
		a.ConfidenceLevel = capConfidence(a.ConfidenceLevel, res.Status)
	}
}

// statsCaveats say, first, which answers asked for line statistics (files
// or lines changed) and got none: a source that cannot compute them
// answers with commits only, never silently.
func statsCaveats(res *Result) []string {
	var out []string
	for _, a := range res.Answers {
		if a.noStats > 0 {
			out = append(out, fmt.Sprintf("No line statistics: the source gave none for the %d commits found, so files, directories and lines changed are not counted; the answer lists the commits only.", a.noStats))
		}
	}
	return out
}

// failures are the reasons nothing answers the question.
func (r *run) failures(res *Result) []string {
	if r.needsData() && !r.anyAnswered() {
		return []string{r.noAnswer()} // the writer had nothing to write from: no second caveat for it
	}
	var out []string
	for _, st := range r.steps {
		if st.role() != sdk.RoleWriter || res.Answer != nil || res.Status == ResultCancelled {
			continue
		}
		if st.status == engine.StatusSkipped && r.hist.Termination == history.TTLExpired {
			out = append(out, r.timeRanOut(st))
			break
		}
		why := string(st.status)
		if st.err != nil {
			why += ": " + sentence(r.redactErr(st.err).Error())
		}
		out = append(out, fmt.Sprintf("No report: the writer step %s %s.", st.id, why))
		break
	}
	return out
}

// cancelled says that the run was stopped and what it had done by then.
func (r *run) cancelled() string {
	if r.needsData() && !r.anyAnswered() {
		return "Cancelled: the run was stopped before any source answered; nothing below answers the question."
	}
	return "Cancelled: the run was stopped before it finished; what follows is what it had found by then."
}

// timeRanOut says plainly that the run's time ran out before the writer
// step writer ran: while fetching when a retrieval hit its deadline (how
// many records arrived, unanalysed), and which steps did not run.
func (r *run) timeRanOut(writer *stepState) string {
	text := fmt.Sprintf("No report: the time ran out (TTL %s)", r.loop.TTL)
	var fetching []string
	for _, st := range r.steps {
		for _, f := range st.out.Failed {
			if errors.Is(f.Err, context.DeadlineExceeded) {
				fetching = append(fetching, fmt.Sprintf("%q (%s arrived, not analysed)", f.Source, plural(f.Received, "record", "records")))
			}
		}
	}
	if len(fetching) > 0 {
		text += " while fetching from " + strings.Join(fetching, ", ")
	}
	var skipped []string
	for _, st := range r.steps {
		if st.status == engine.StatusSkipped {
			skipped = append(skipped, st.id)
		}
	}
	return fmt.Sprintf("%s: the question was not answered; %s did not run (the writer %s among them).", text, strings.Join(skipped, ", "), writer.id)
}

// written reports whether every writer step of the run wrote its report
// (true when none is planned): records a source sent before failing are
// then used by the answer.
func (r *run) written() bool {
	for _, st := range r.steps {
		if st.role() == sdk.RoleWriter && st.status != engine.StatusCompleted {
			return false
		}
	}
	return true
}

// anyAnswered reports whether a source answered a retrieval of the run.
func (r *run) anyAnswered() bool {
	for _, st := range r.steps {
		if st.action() == "retrieve" && st.status == engine.StatusCompleted && len(st.out.Answered) > 0 {
			return true
		}
	}
	return false
}

// noAnswer says why no source answered: those asked answered with no
// records the checks let through, none is configured for the retrievals,
// or every source failed (the source caveats give each error).
func (r *run) noAnswer() string {
	for _, st := range r.steps {
		if st.action() == "retrieve" && len(st.out.Answered) > 0 {
			text := "No records: " + strings.Join(quoted(st.out.Answered), ", ") + " answered with none that answer the question"
			if r.hist.Termination == history.TTLExpired {
				text += fmt.Sprintf(", and the time ran out (TTL %s) before it could be asked another way", r.loop.TTL)
			}
			return text + "."
		}
	}
	for _, st := range r.steps {
		if st.action() == "retrieve" && len(st.out.Failed) > 0 {
			return "No source answered the question: every retrieval failed."
		}
	}
	if len(r.validatedSources()) > 0 {
		return "No source is configured to answer the question."
	}
	if in := r.plan.Interpretation; in != nil && slices.ContainsFunc(in.Sources, func(s engine.SourceView) bool { return s.Error != "" }) {
		return "No source answered the question."
	}
	return "No source is configured to answer the question."
}

// periodCaveats say, per retrieval answered with the nearest activity
// around its empty period, that the period was empty and what is shown.
func (r *run) periodCaveats(res *Result) []string {
	var out []string
	for _, st := range r.steps {
		if st.nearest == "" || st.status != engine.StatusCompleted {
			continue
		}
		rg, ok := r.askedPeriod(st)
		if !ok {
			continue
		}
		noun := "records"
		if len(st.out.Records) > 0 {
			noun = pluralKind(st.out.Records[0].Kind)
		}
		if r.hasOtherFilters(st) {
			noun = "matching " + noun
		}
		head := fmt.Sprintf("No %s %s", noun, periodText(rg))
		side, which := "before", "the most recent"
		if st.nearest == nearestAfter {
			side, which = "after", "the oldest"
		}
		if len(st.out.Records) == 0 {
			out = append(out, fmt.Sprintf("%s, and none %s.", head, side))
			continue
		}
		shown := make([]string, 0, len(st.out.Records))
		for _, rec := range st.out.Records {
			shown = append(shown, recordText(rec))
		}
		out = append(out, fmt.Sprintf("%s; showing %s %s that: %s.", head, which, side, strings.Join(shown, "; ")))
	}
	return out
}

// hasOtherFilters reports whether st filters on more than its period.
func (r *run) hasOtherFilters(st *stepState) bool {
	for k, v := range r.stepFilters(st) {
		if k != datesFilter && len(v) > 0 {
			return true
		}
	}
	return false
}

// missingCaveats say which paths and authors the question names no
// source has: they come first, as they explain an empty answer.
func (r *run) missingCaveats() []string {
	in := r.plan.Interpretation
	if in == nil {
		return nil
	}
	var out []string
	for _, c := range in.Missing {
		where := "tree"
		if c.Ground == sdk.TermAuthor {
			where = "history"
		}
		out = append(out, fmt.Sprintf("No %s %q in the repository's %s: the answer is about that %[1]s only.", singular(c.Key), c.Value, where))
	}
	return out
}

// constraintCaveats say which constraints of the interpretation the
// answer does not apply.
func (r *run) constraintCaveats() []string {
	in := r.plan.Interpretation
	if in == nil {
		return nil
	}
	var out []string
	for _, c := range in.Unapplied {
		why := c.Reason
		if why == "" && c.Source != "" {
			why = fmt.Sprintf("source %q cannot filter by %s", c.Source, c.Key)
		}
		out = append(out, constraintText(c, why, "no source of the plan applies it"))
	}
	for _, c := range in.Unknown {
		out = append(out, constraintText(c, c.Reason, "no source knows it"))
	}
	return out
}

func constraintText(c engine.Constraint, why, otherwise string) string {
	if c.Key == sdk.FilterWithStats {
		// Not a filter to a reader: what the answer lacks.
		if c.Source != "" {
			why = fmt.Sprintf("source %q does not compute them", c.Source)
		} else if why == "" {
			why = otherwise
		}
		return fmt.Sprintf("No line statistics: %s, so files, directories and lines changed are not counted; the answer lists commits only.", sentence(why))
	}
	v := c.Value
	if v == "" {
		v = c.Phrase
	}
	if why == "" {
		why = otherwise
	}
	return fmt.Sprintf("The %s filter %q could not be applied: %s.", singular(c.Key), v, sentence(why))
}

// sourceCaveats say which sources of the plan are not available (from
// grounding) or failed a retrieval, each once, in plan order.
func (r *run) sourceCaveats() []string {
	use := "the answer uses them"
	if !r.written() {
		use = "no report was written from them"
	}
	var out []string
	said := map[string]bool{}
	if in := r.plan.Interpretation; in != nil {
		for _, s := range r.validatedSources() { // the plan validation explains them
			said[s] = true
		}
		for _, s := range in.Sources {
			if s.Error != "" && !said[s.Name] {
				said[s.Name] = true
				out = append(out, fmt.Sprintf("Source %q is not available: %s.", s.Name, sentence(r.redactErr(fmt.Errorf("%s", s.Error)).Error())))
			}
		}
	}
	for _, st := range r.steps {
		for _, f := range st.out.Failed {
			if !said[f.Source] {
				said[f.Source] = true
				out = append(out, r.failureText(f, use))
			}
		}
	}
	return out
}

// failureText is a source's failure as a sentence, saying how many
// records arrived before a stream was cut short; an error that names the
// source already ("source \"youtrack\" is not configured: …") is the
// sentence. use says what became of the records that arrived.
func (r *run) failureText(f sourceFailure, use string) string {
	msg := sentence(r.redactErr(f.Err).Error())
	if q := strconv.Quote(f.Source); f.Received == 0 && strings.HasPrefix(msg, "source "+q) {
		return "Source" + strings.TrimPrefix(msg, "source") + "."
	}
	if f.Received > 0 {
		return fmt.Sprintf("Source %q failed after %s (%s): %s.", f.Source, plural(f.Received, "record", "records"), use, msg)
	}
	return fmt.Sprintf("Source %q failed: %s.", f.Source, msg)
}

// coverageCaveats say which sources' histories are cut short inside the
// period a retrieval asked for (the whole history when it asked none).
func (r *run) coverageCaveats() []string {
	in := r.plan.Interpretation
	if in == nil {
		return nil
	}
	var out []string
	for _, s := range in.Sources {
		cov := s.Coverage
		if cov.Truncated == "" || !r.cutsIn(s.Name, cov.Earliest) {
			continue
		}
		name := cov.Name
		if name == "" {
			name = s.Name
		}
		text := fmt.Sprintf("The history of %s is truncated (%s)", name, sentence(cov.Truncated))
		if !cov.Earliest.IsZero() {
			text += ": its history before " + day(cov.Earliest) + " is incomplete"
		}
		out = append(out, text+".")
	}
	return out
}

// cutsIn reports whether a retrieval on source asked for time before
// earliest (a zero earliest: unknown, so it may).
func (r *run) cutsIn(source string, earliest time.Time) bool {
	for _, st := range r.steps {
		if st.action() != "retrieve" || !slices.ContainsFunc(st.plans, func(pi int) bool {
			return pi >= 0 && pi < len(r.plan.Retrieval.Plans) && slices.Contains(r.plan.Retrieval.Plans[pi].Sources, source)
		}) {
			continue
		}
		rg, ok := r.askedPeriod(st)
		if !ok || rg.Since.IsZero() || earliest.IsZero() || rg.Since.Before(earliest) {
			return true
		}
	}
	return false
}

// stepCaveats explain a partial or failed run no other caveat explains:
// the steps that failed, those the validator found invalid, or how the
// loop ended.
func (r *run) stepCaveats(res *Result, pending []string) []string {
	var out []string
	for _, s := range res.Steps {
		if s.Status == engine.StatusFailed && len(out) < 3 {
			out = append(out, fmt.Sprintf("Step %s (%s) failed: %s.", s.ID, s.Description, sentence(s.Error)))
		}
	}
	for _, st := range r.steps {
		if st.dispute != "" && len(out) < 3 {
			out = append(out, fmt.Sprintf("The validator found step %s (%s) invalid: %s.", st.id, st.hyp.Description, sentence(st.dispute)))
		}
	}
	switch {
	case len(out) > 0:
	case res.Error != "":
		out = append(out, fmt.Sprintf("The run ended early: %s.", sentence(res.Error)))
	case len(pending) > 0:
		out = append(out, fmt.Sprintf("Not every step completed (%s): %s.", r.hist.Termination, strings.Join(pending, ", ")))
	default:
		out = append(out, fmt.Sprintf("The loop ended before every step completed (%s).", r.hist.Termination))
	}
	return out
}

// markOutside marks a step result whose records answer a broadened
// question, with the period it was asked for.
func (r *run) markOutside(sr *StepResult, st *stepState) {
	if st.nearest == "" {
		return
	}
	sr.Outside = outsideValue(st.nearest)
	if rg, ok := r.askedPeriod(st); ok {
		sr.AskedSince, sr.AskedUntil = rg.Since, rg.Until
	}
}

// capConfidence lowers a writer's confidence to what the status allows:
// at most Medium for a partial answer, Low for a failed one.
func capConfidence(level, status string) string {
	switch {
	case status == ResultFailed || status == ResultCancelled:
		return "Low"
	case status == ResultPartial && strings.EqualFold(level, "High"):
		return "Medium"
	}
	return level
}

// periodText is [Since, Until) for a person: inclusive calendar days.
func periodText(rg timerange.Range) string {
	switch {
	case rg.Since.IsZero():
		return "before " + day(rg.Until)
	case rg.Until.IsZero():
		return "since " + day(rg.Since)
	}
	last := rg.Until.Add(-time.Nanosecond)
	if day(last) == day(rg.Since) {
		return "on " + day(rg.Since)
	}
	return fmt.Sprintf("between %s and %s", day(rg.Since), day(last))
}

// recordText names a record for a caveat: its short id, title and day.
func recordText(rec sdk.Record) string {
	id := rec.ID
	if s, ok := rec.Fields["short_id"].(string); ok && s != "" {
		id = s
	}
	text := id
	if rec.Title != "" {
		text += " " + fmt.Sprintf("%q", summary(rec.Title, 80))
	}
	if !rec.Time.IsZero() {
		text += " on " + day(rec.Time)
	}
	return text
}

// pluralKind is a record kind as a plural noun.
func pluralKind(kind string) string {
	_, plural := noun(kind)
	return plural
}

// singular is an entity key as one value's noun: paths → path.
func singular(key string) string {
	switch {
	case strings.HasSuffix(key, "ses"):
		return strings.TrimSuffix(key, "es")
	case strings.HasSuffix(key, "s"):
		return strings.TrimSuffix(key, "s")
	}
	return key
}

// sentence trims s for use inside a sentence that ends with a period.
func sentence(s string) string {
	return strings.TrimRight(strings.TrimSpace(s), ".")
}

// quoted is names, each in double quotes.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return out
}
