package runner

import (
	"fmt"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/nous-dev/nous/sdk"
)

// validate runs the critic's verdict and every applicable check on a
// finished step, adds the findings to the pass report, and marks the step
// invalid (refine), failed (fail) or leaves it completed (warn, pass).
func (r *run) validate(p *history.Pass, st *stepState) {
	if rv := st.out.Review; rv != nil && st.role() == sdk.RoleWriter {
		r.criticFinding(p, st, rv)
	}
	if q := st.out.Search; len(q) > 0 && st.role() == sdk.RoleWriter {
		msg := "analyst needs more data: " + strings.Join(q, "; ")
		st.delta = &pendingDelta{op: OpAdd, search: q, because: msg}
		r.finding(p, st, history.Finding{Check: "analyst", Step: st.id, Severity: history.SeverityFail, Message: msg, OnFail: "refine"})
	}
	if len(r.plan.Policy.Checks) == 0 {
		return // no view to build
	}
	env := cond.StepEnv{Pass: p.Number, Query: r.plan.Query, Mode: r.plan.Mode}
	view := st.view(r.stepFilters(st))
	for _, c := range r.plan.Policy.Checks {
		// A failed check may have changed the status or error; the rest
		// of the view (records above all) is built once per step.
		view.Status, view.Error = string(st.status), errText(st.err)
		env.Step = view
		env.Validation = cond.Validation{Failed: p.Validation.Failed, Warnings: p.Validation.Warnings, Passed: p.Validation.Passed}
		applies, err := c.Applies.Eval(&env)
		if err != nil {
			r.finding(p, st, history.Finding{Check: c.Name, Step: st.id, Severity: history.SeverityWarn, Message: "applies: " + err.Error()})
			continue
		}
		if !applies {
			continue
		}
		ok, err := c.Assert.Eval(&env)
		if err != nil {
			r.finding(p, st, history.Finding{Check: c.Name, Step: st.id, Severity: history.SeverityWarn, Message: "assert: " + err.Error()})
			continue
		}
		if ok {
			p.Validation.Add(history.Finding{Check: c.Name, Step: st.id, Severity: history.SeverityPass})
			continue
		}
		msg := c.Message
		if msg == "" {
			msg = "check failed: " + c.Assert.Source
		}
		f := history.Finding{Check: c.Name, Step: st.id, Severity: history.SeverityFail, Message: msg, OnFail: c.OnFail}
		switch c.OnFail {
		case "refine":
			if c.Refine != nil && c.Refine.Nearest != "" {
				if why := r.lookAround(st, c.Refine.Nearest); why != "" {
					// Nothing to look around: an empty answer is the
					// answer, not a reason to ask another question.
					f.Severity, f.Message = history.SeverityWarn, msg+" ("+why+")"
					break
				}
			}
			if st.status == engine.StatusCompleted || st.status == engine.StatusInvalid {
				st.status = engine.StatusInvalid
				if st.delta == nil && c.Refine != nil {
					st.delta = &pendingDelta{op: c.Refine.Op, drop: c.Refine.DropFilters, set: c.Refine.SetFilters,
						limit: c.Refine.Limit, nearest: c.Refine.Nearest, because: fmt.Sprintf("check %q: %s", c.Name, msg)}
				}
			}
		case "fail":
			st.status, st.err = engine.StatusFailed, fmt.Errorf("check %q: %s", c.Name, msg)
		default:
			f.Severity = history.SeverityWarn
		}
		r.finding(p, st, f)
	}
}

func (r *run) criticFinding(p *history.Pass, st *stepState, rv *sdk.CriticOutput) {
	f := history.Finding{Check: "critic", Step: st.id, Severity: history.SeverityPass, Message: rv.Critique}
	switch rv.Status {
	case sdk.VerdictWarn:
		f.Severity = history.SeverityWarn
	case sdk.VerdictReject:
		f.Severity, f.OnFail = history.SeverityFail, "refine"
		st.delta = &pendingDelta{op: OpModify, review: rv, because: "critic rejected the draft: " + rv.Critique}
	}
	if f.Severity == history.SeverityPass {
		p.Validation.Add(f)
		return
	}
	r.finding(p, st, f)
}

// finding adds a warning or failure to the report and the trace.
func (r *run) finding(p *history.Pass, st *stepState, f history.Finding) {
	p.Validation.Add(f)
	e := trace.Entry{Stage: trace.Verification, Thought: fmt.Sprintf("%s on %s: %s", f.Check, st.id, f.Severity),
		Action: "check:" + f.Check, Parameters: r.param(trace.Param{Key: "step", Value: st.id}), Outcome: trace.Success}
	if f.Message != "" {
		e.Evidence = []string{f.Message}
	}
	if f.Severity == history.SeverityFail {
		e.Outcome = trace.Failed
		if st.out.Review != nil && f.Check == "critic" {
			e.Corrections = append(append([]string{}, st.out.Review.Suggestions...), st.out.Review.LogicalGaps...)
		} else if f.Message != "" {
			e.Corrections = []string{f.Message}
		}
	}
	r.trace.Add(e)
}

// assess derives the convergence assessment from the step states.
func (r *run) assess() history.Assessment {
	a := history.Assessment{Completed: make([]string, 0, len(r.steps)), NeedRefine: []string{}, Failed: []string{}, Pending: []string{}}
	for _, st := range r.steps {
		switch {
		case st.dispute != "":
			a.NeedRefine = append(a.NeedRefine, st.id)
		case st.status == engine.StatusCompleted || st.status == engine.StatusRemoved:
			a.Completed = append(a.Completed, st.id)
		case st.status == engine.StatusInvalid:
			a.NeedRefine = append(a.NeedRefine, st.id)
		case st.status == engine.StatusFailed || st.status == engine.StatusSkipped:
			a.Failed = append(a.Failed, st.id)
		default:
			a.Pending = append(a.Pending, st.id)
		}
	}
	if n := len(r.steps); n > 0 {
		a.Completeness = float64(len(a.Completed)) / float64(n)
	}
	a.Converged = len(a.NeedRefine) == 0 && len(a.Pending) == 0
	if a.Converged && len(a.Failed) == 0 {
		a.Reason = "every step completed and passed validation"
		return a
	}
	var why []string
	if len(a.NeedRefine) > 0 {
		why = append(why, fmt.Sprintf("%d step(s) need refinement (%s)", len(a.NeedRefine), strings.Join(a.NeedRefine, ", ")))
	}
	if len(a.Pending) > 0 {
		why = append(why, fmt.Sprintf("%d step(s) not run (%s)", len(a.Pending), strings.Join(a.Pending, ", ")))
	}
	if len(a.Failed) > 0 {
		why = append(why, fmt.Sprintf("%d step(s) failed or skipped (%s)", len(a.Failed), strings.Join(a.Failed, ", ")))
	}
	a.Reason = strings.Join(why, "; ")
	return a
}

// errText is err's message, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
