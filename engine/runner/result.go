package runner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/tier"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
)

// Run statuses.
const (
	ResultSuccess   = "success"
	ResultPartial   = "partial"
	ResultFailed    = "failed"
	ResultCancelled = "cancelled"
)

// Result is a finished (or stopped) run.
type Result struct {
	ExecutionID   string                   `json:"execution_id"`
	InteractionID string                   `json:"interaction_id"`       // the question this run answers (see Options.InteractionID)
	Session       string                   `json:"session_id,omitempty"` // the conversation the question belongs to, set by its caller
	Query         string                   `json:"query"`
	Mode          string                   `json:"mode"`
	Status        string                   `json:"status"`            // success | partial | failed | cancelled | needs_clarification
	Report        string                   `json:"report"`            // the final report (Markdown): caveats, what was understood, one section per intent
	Answers       []Answer                 `json:"answers,omitempty"` // one per accepted intent, in plan order
	Answer        *sdk.WriterOutput        `json:"answer,omitempty"`
	Review        *sdk.CriticOutput        `json:"review,omitempty"`
	Clarification *sdk.ClarificationOutput `json:"clarification,omitempty"`
	// Ambiguity is what a question asked back leaves open (status
	// needs_clarification); Clarification then holds the question.
	Ambiguity *engine.Ambiguity `json:"ambiguity,omitempty"`
	Steps     []StepResult      `json:"steps"`
	Records   []sdk.Record      `json:"records"`                   // the evidence the run kept: per retrieval at most loop.max_records, the newest
	Omitted   int               `json:"records_omitted,omitempty"` // records beyond those, counted in the answers but not held
	Groups    []tier.Group      `json:"tier_groups,omitempty"`
	Pending   []string          `json:"pending_commitments,omitempty"`
	Error     string            `json:"error,omitempty"`
	// Caveats say, one sentence each and in reading order, why the answer
	// is not (or not only) the answer to the question asked: an empty
	// period answered with the nearest activity, a constraint that could
	// not be applied, a source that failed or is not configured, a history
	// that does not reach back to the asked period. A partial or failed
	// run has at least one.
	Caveats []string `json:"caveats,omitempty"`

	Plan    *engine.Plan     `json:"-"`
	History *history.History `json:"-"`
	Trace   []trace.Entry    `json:"-"`
}

// StepResult is a step's final state.
type StepResult struct {
	ID          string        `json:"id"`
	Description string        `json:"description"`
	Intent      string        `json:"intent,omitempty"`
	Action      string        `json:"action,omitempty"`
	Role        string        `json:"role,omitempty"`
	Status      engine.Status `json:"status"`
	Records     int           `json:"records"`
	Attempts    int           `json:"attempts"`
	Output      string        `json:"output,omitempty"`
	Error       string        `json:"error,omitempty"`
	// Partial says why a completed step's evidence is incomplete: a source
	// failed beside others that answered, or its stream ended in an error
	// after some records (which the step keeps).
	Partial string `json:"partial,omitempty"`
	// Outside is set when the step's records answer a broadened question
	// (OutsideBefore, OutsideAfter: the nearest activity around an empty
	// period); the records then are not the answer to the asked range
	// [AskedSince, AskedUntil).
	Outside    string    `json:"outside,omitempty"`
	AskedSince time.Time `json:"asked_since,omitzero"`
	AskedUntil time.Time `json:"asked_until,omitzero"`
}

// finish runs the finalization: a draft the critic kept rejecting is
// composed anyway (as the source documents' loop does when it runs out of
// iterations), leftover steps are skipped, commitments are checked, and
// the result, history and logs are assembled.
func (r *run) finish(ctx context.Context) (*Result, error) {
	if r.fatal == nil && ctx.Err() == nil {
		r.composeRejected(ctx)
	}
	for _, st := range r.steps {
		if st.status == engine.StatusPending || st.status == engine.StatusInvalid {
			st.status = engine.StatusSkipped
			if st.err == nil {
				st.err = fmt.Errorf("not run: loop ended (%s)", r.hist.Termination)
			}
		}
	}
	queries := r.executedQueries()
	res := &Result{ExecutionID: r.hist.ExecutionID, InteractionID: r.interaction, Query: r.plan.Query, Mode: r.plan.Mode, Plan: r.executedPlan(queries), History: r.hist, Steps: make([]StepResult, 0, len(r.steps)), Records: []sdk.Record{}}
	r.collect(res)
	r.answers(res)
	err := r.runError(ctx, res)
	res.Status = r.status(ctx, res, err)
	res.Pending = r.trace.PendingCommitments()
	r.judge(res)
	if err != nil {
		res.Error = r.redactErr(err).Error()
	}
	if res.Report == "" && len(res.Answers) == 0 {
		res.Report = fallbackReport(res)
	}
	if len(res.Answers) > 0 || len(res.Caveats) > 0 {
		res.Report = Compose(res)
	}
	r.finalTrace(res)
	res.Trace = r.trace.Close()
	r.finalHistory(res)
	if r.logs != nil {
		if lerr := r.logs.LogSummary(r.hist); lerr != nil {
			r.e.opts.Logger.Warn("session summary", "err", lerr)
		}
	}
	r.notify(Event{Kind: "done", Status: res.Status, Detail: r.hist.Termination})
	return res, r.redactErr(err)
}

// composeRejected lets the writer compose from the last rejected draft.
func (r *run) composeRejected(ctx context.Context) {
	for _, st := range r.steps {
		if st.status != engine.StatusInvalid || (st.out.Review == nil && len(st.out.Search) == 0) || st.role() != sdk.RoleWriter || r.boundary(ctx) != "" {
			continue
		}
		p := &r.hist.Passes[len(r.hist.Passes)-1]
		st.review, st.draft = st.out.Review, st.out.Draft
		st.status = engine.StatusRunning
		r.startRun(st)
		st.entry = r.trace.Add(trace.Entry{Stage: trace.Finalization, Thought: "Compose from what the loop has: the last draft, rejected or missing evidence",
			Action: "agent:writer", Parameters: r.param(trace.Param{Key: "step", Value: st.id}), Fulfills: []string{commitPrefix + st.id}})
		out, err := r.composeFinal(ctx, p.Number, st)
		if st.review != nil {
			out.Verdict, out.Review = st.review.Status, st.review
		}
		st.out, st.status, st.err = out, engine.StatusCompleted, nil
		if err != nil {
			st.status, st.err = engine.StatusFailed, r.redactErr(err)
		}
		r.endRun(st)
		r.recordStep(p, st)
	}
}

// composeFinal runs the writer on st's last draft, turning a panic (a bug)
// into an error as runGuarded does for the loop's steps.
func (r *run) composeFinal(ctx context.Context, pass int, st *stepState) (out output, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = panicError(st, v)
		}
	}()
	in, omitted := r.inputs(st)
	c := newAgentCall(ctx, r, pass, st, in, omitted)
	return c.writer(true)
}

// collect fills the result from the steps, in plan order.
func (r *run) collect(res *Result) {
	seen := map[string]bool{}
	for _, st := range r.steps {
		sr := StepResult{ID: st.id, Description: st.hyp.Description, Intent: st.hyp.Intent, Action: st.action(), Role: st.role(),
			Status: st.status, Records: len(st.out.Records), Attempts: st.attempts, Output: st.out.Text}
		if st.err != nil {
			sr.Error = r.redactErr(st.err).Error()
		}
		sr.Partial = r.partial(st)
		r.markOutside(&sr, st)
		res.Steps = append(res.Steps, sr)
		if st.status != engine.StatusCompleted {
			continue
		}
		if st.out.Answer != nil {
			res.Answer, res.Report = st.out.Answer, st.out.Answer.FinalReport
		}
		if st.out.Review != nil {
			res.Review = st.out.Review
		}
		if st.out.Clarify != nil {
			res.Clarification = st.out.Clarify
		}
		if st.action() == "retrieve" {
			res.Omitted += st.out.Omitted.count()
			for _, rec := range st.out.Records {
				if k := recordKey(rec); !seen[k] {
					seen[k] = true
					res.Records = append(res.Records, rec)
				}
			}
		}
	}
	res.Groups = tier.Compare(r.plan.Policy.Mode, res.Records)
}

// runError is what ended the run, if anything did.
func (r *run) runError(ctx context.Context, res *Result) error {
	switch {
	case r.fatal != nil:
		return r.fatal
	case ctx.Err() != nil:
		return fmt.Errorf("run cancelled: %w", ctx.Err())
	case r.hasRetrieve && len(res.Records) == 0:
		return tier.CheckEmpty(r.plan.Policy.Mode, 0, 0)
	}
	return nil
}

func (r *run) status(ctx context.Context, res *Result, err error) string {
	if ctx.Err() != nil {
		return ResultCancelled
	}
	if err != nil {
		return ResultFailed
	}
	completed, last := 0, engine.Status("")
	for _, s := range res.Steps {
		if s.Status == engine.StatusCompleted || s.Status == engine.StatusRemoved {
			completed++
		}
		last = s.Status
	}
	switch {
	case len(res.Steps) > 0 && completed == 0:
		return ResultFailed
	case completed < len(res.Steps) || last == engine.StatusFailed || r.hist.Termination != history.Converged:
		return ResultPartial
	}
	for _, a := range res.Answers {
		if a.Status != ResultSuccess {
			return ResultPartial // an intent answered in part (an empty period, say) or not at all
		}
	}
	return ResultSuccess
}

// fallbackReport summarises the run when no writer composed a report.
func fallbackReport(res *Result) string {
	var b strings.Builder
	b.Grow(64 * (len(res.Steps) + 1))
	b.WriteString("# ")
	b.WriteString(res.Query)
	b.WriteString("\n\n")
	for _, s := range res.Steps {
		for _, part := range [...]string{"- ", s.ID, " ", s.Description, ": ", string(s.Status)} {
			b.WriteString(part)
		}
		if s.Output != "" {
			b.WriteString(" — ")
			b.WriteString(summary(s.Output, 160))
		}
		b.WriteByte('\n')
	}
	if len(res.Records) > 0 {
		fmt.Fprintf(&b, "\nEvidence (%d record(s)):\n", len(res.Records))
		for _, rec := range res.Records[:min(len(res.Records), 20)] {
			fmt.Fprintf(&b, "- [%s] %s", rec.ID, rec.Title)
			if rec.URL != "" {
				fmt.Fprintf(&b, " (%s)", rec.URL)
			}
			b.WriteByte('\n')
		}
	}
	s := b.String()
	if t := strings.TrimRight(s, "\n"); len(t) != len(s)-1 {
		return t + "\n"
	}
	return s // ends in one newline already: no copy
}

func (r *run) finalTrace(res *Result) {
	e := trace.Entry{Stage: trace.Finalization, Thought: "Run " + res.Status + " after " + strconv.Itoa(len(r.hist.Passes)) + " pass(es): " + r.hist.Termination,
		Action: "finalize", Outcome: trace.Success}
	if len(res.Pending) > 0 {
		e.Outcome = trace.Partial
		e.Evidence = []string{"pending commitments: " + strings.Join(res.Pending, ", ")}
		if res.Status == ResultSuccess {
			res.Status = ResultPartial
		}
	}
	if res.Error != "" {
		e.Outcome, e.Error = trace.Failed, res.Error
	}
	r.trace.Add(e)
}

func (r *run) finalHistory(res *Result) {
	h := r.hist
	if h.Termination == "" {
		h.Termination = history.MaxPasses
	}
	h.EndedAt = r.e.opts.Clock()
	h.FinalResult = history.FinalResult{Status: res.Status, Report: res.Report, Error: res.Error, Queries: res.Plan.Retrieval.Queries}
	if res.Answer != nil {
		h.FinalResult.Confidence, h.FinalResult.Sources = res.Answer.ConfidenceLevel, res.Answer.SourcesUsed
	}
	// Parallel steps finish in any order; the history lists them by
	// dependency depth, then in plan order (nodes are added in plan order),
	// so a step follows what it waited for and the same run reads (and
	// serialises) the same every time.
	depth := r.depths()
	for i := range h.Passes {
		slices.SortStableFunc(h.Passes[i].Steps, func(a, b history.StepRun) int {
			na, nb := r.byID[a.ID].node, r.byID[b.ID].node
			return cmp.Or(cmp.Compare(depth[na], depth[nb]), cmp.Compare(na, nb), cmp.Compare(a.Attempt, b.Attempt))
		})
	}
	s := &h.Statistics
	s.Passes = len(h.Passes)
	for _, p := range h.Passes {
		for _, sr := range p.Steps {
			s.StepRuns++
			s.AgentCalls += sr.AgentCalls
			if sr.Status == engine.StatusFailed {
				s.StepsFailed++
			}
		}
		for _, ref := range p.Refinements {
			if ref.Applied {
				s.Refinements++
			}
		}
	}
	s.Records = len(res.Records)
	r.mu.Lock()
	s.PromptTokens, s.CompletionTokens = r.promptTok, r.complTok
	r.mu.Unlock()
	s.DurationMS = h.EndedAt.Sub(h.StartedAt).Milliseconds()
}

func (r *run) redactErr(err error) error { return r.e.opts.Redactor.Error(err) }

// IsNoValidSources reports whether err is the strict mode "no valid sources" error.
func IsNoValidSources(err error) bool {
	var nv *tier.NoValidSourcesError
	return errors.As(err, &nv)
}

// depths is each step's longest chain of dependencies (0: none), by node,
// bounded by the number of steps so a cycle the loop stalled on cannot
// hang it. A dependency that names no step does not count.
func (r *run) depths() []int {
	d, w := make([]int, len(r.nodes)), r.m.walk
	for range len(r.steps) {
		changed := false
		for _, st := range r.steps {
			for _, u := range w.Upstreams(st.node) {
				if r.nodes[u] != nil && d[u]+1 > d[st.node] && d[u] < len(r.steps) {
					d[st.node], changed = d[u]+1, true
				}
			}
		}
		if !changed {
			break
		}
	}
	return d
}
