package runner

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/nous-dev/nous/sdk"
)

// validatorCheck names the validator's findings (history.Finding.Check).
const validatorCheck = "validator"

// Bounds of what the validator is sent and what of its answer is used.
const (
	maxValidatedSteps  = 32   // steps of one pass judged
	maxValidatedOutput = 2000 // characters of a step's output shown
	maxDescription     = 500  // characters of a delta's new description
	maxIssues          = 10   // issues of one verdict kept
	maxIssueText       = 1000 // characters of a verdict's issues, or of a delta's justification
	maxDeltaFilters    = 16   // filters a delta drops or sets
	maxDeltaValues     = 32   // values a delta sets on one filter
)

// validatePass is a pass's agent validation: at the evaluate phase, after
// every step settled and before the assessment, the validator judges the
// settled steps the rules select, in one call. Its verdicts become
// findings beside the checks'; an invalid verdict's delta marks the step
// for refinement. A validator that errs, times out or answers off-schema
// leaves its verdicts uncertain with a warning: it never fails the run.
func (r *run) validatePass(ctx context.Context, p *history.Pass) {
	v := r.plan.Policy.Validator
	steps := r.judged(p, v)
	if len(steps) == 0 || r.fatal != nil || r.boundary(ctx) != "" {
		return // nothing to judge, or the run ends whatever the verdicts
	}
	if v.When != nil {
		env := cond.PassEnv{Pass: p.Number, MaxPasses: r.loop.MaxPasses, Steps: len(steps), Query: r.plan.Query, Mode: r.plan.Mode,
			Validation: cond.Validation{Failed: p.Validation.Failed, Warnings: p.Validation.Warnings, Passed: p.Validation.Passed}}
		ok, err := v.When.Eval(&env)
		if err != nil {
			r.uncertain(p, steps, "validator not called: when: "+err.Error())
			return
		}
		if !ok {
			return
		}
	}
	out, err := r.callValidator(ctx, p, v, steps)
	if err != nil {
		r.uncertain(p, steps, "the validator failed: "+r.redactErr(err).Error())
		return
	}
	verdicts := make(map[string]sdk.StepVerdict, len(out.Steps))
	for _, sv := range out.Steps {
		if _, dup := verdicts[sv.Step]; !dup {
			verdicts[sv.Step] = sv
		}
	}
	for _, st := range steps {
		sv, ok := verdicts[st.id]
		if !ok {
			sv = sdk.StepVerdict{Verdict: sdk.VerdictUncertain, Issues: []string{"the validator gave no verdict on this step"}}
		}
		r.verdict(p, st, sv)
	}
}

// judged are the steps the pass settled with a result (completed, invalid
// or failed; not skipped) that the validator's steps condition selects,
// in the order they settled, at most maxValidatedSteps.
func (r *run) judged(p *history.Pass, v *engine.Validator) []*stepState {
	var out []*stepState
	env := cond.StepEnv{Pass: p.Number, Query: r.plan.Query, Mode: r.plan.Mode}
	for _, run := range p.Steps {
		st := r.byID[run.ID]
		if st == nil || (st.status != engine.StatusCompleted && st.status != engine.StatusInvalid && st.status != engine.StatusFailed) {
			continue
		}
		if v.Steps != nil {
			env.Step = st.view(r.stepFilters(st))
			if ok, err := v.Steps.Eval(&env); err != nil || !ok {
				continue // a condition that errs on a step selects nothing there
			}
		}
		out = append(out, st)
		if len(out) == maxValidatedSteps {
			break
		}
	}
	return out
}

// callValidator asks the validator agent once; malformed JSON is repaired
// once (jsonrepair), an answer that still does not fit is an error.
func (r *run) callValidator(ctx context.Context, p *history.Pass, v *engine.Validator, steps []*stepState) (out sdk.ValidatorOutput, err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("validator panicked: %v", x)
		}
	}()
	in := sdk.ValidatorInput{Query: r.plan.Query, Mode: r.plan.Mode, Pass: p.Number, Depth: r.depthName(), Steps: make([]sdk.ValidatedStep, len(steps))}
	if d := r.questionPeriod(); d != nil {
		in.Period = &sdk.TimeRange{Since: d.Since, Until: d.Until}
	}
	for i, st := range steps {
		in.Steps[i] = r.validated(st)
	}
	self := &stepState{id: "pass" + strconv.Itoa(p.Number), hyp: &engine.Hypothesis{Description: "Validate the steps of pass " + strconv.Itoa(p.Number)},
		step: &engine.Step{Action: engine.ActionAgent, Role: engine.RoleValidator, Agent: v.Agent}}
	c := newAgentCall(ctx, r, p.Number, self, nil, nil)
	err = c.ask(sdk.RoleValidator, in, &out, 1)
	return out, err
}

// questionPeriod is the period the question names, or nil.
func (r *run) questionPeriod() *engine.DateRange {
	if in := r.plan.Interpretation; in != nil {
		return in.Dates
	}
	return nil
}

// validated is st as the validator sees it.
func (r *run) validated(st *stepState) sdk.ValidatedStep {
	out := clip(st.out.Text, maxValidatedOutput) // lines kept: a report's headings count
	vs := sdk.ValidatedStep{ID: st.id, Hypothesis: st.hyp.Description, Action: st.action(), Role: st.role(), Status: string(st.status),
		Records: len(st.out.Records) + st.out.Omitted.count(), Output: out, Truncated: out != st.out.Text, Filters: r.stepFilters(st), Error: errText(st.err), Relevance: r.relevance(st)}
	if vs.Records > 0 {
		vs.Kinds = map[string]int{}
		for _, rec := range st.out.Records {
			vs.Kinds[rec.Kind]++
		}
		for kind, t := range st.out.Omitted {
			vs.Kinds[kind] += t.Count
		}
	}
	return vs
}

// uncertain records every step's verdict as uncertain, for why.
func (r *run) uncertain(p *history.Pass, steps []*stepState, why string) {
	for _, st := range steps {
		r.finding(p, st, history.Finding{Check: validatorCheck, Step: st.id, Severity: history.SeverityWarn, Message: "verdict uncertain: " + why})
	}
}

// verdict turns the validator's verdict on st into a finding and, for an
// invalid step with an allowed delta while a pass remains, a refinement.
// An invalid step left as it is (no delta, none allowed, no pass left, a
// refinement refused) keeps its result but is disputed: not converged.
func (r *run) verdict(p *history.Pass, st *stepState, sv sdk.StepVerdict) {
	issues := strings.Join(sv.Issues[:min(len(sv.Issues), maxIssues)], "; ")
	f := history.Finding{Check: validatorCheck, Step: st.id, Message: clip(issues, maxIssueText)}
	switch sv.Verdict {
	case sdk.VerdictValid:
		st.dispute = ""
		f.Severity = history.SeverityPass
		r.finding(p, st, f)
		return
	case sdk.VerdictUncertain:
		st.dispute = ""
		f.Severity = history.SeverityWarn
		if f.Message == "" {
			f.Message = "the validator could not tell"
		}
		r.finding(p, st, f)
		return
	}
	f.Severity = history.SeverityFail
	if f.Message == "" {
		f.Message = "the validator found the step invalid"
	}
	d, why := r.validatorDelta(st, sv, f.Message)
	switch {
	case st.status == engine.StatusFailed:
		why = "a failed step is never refined"
	case st.status == engine.StatusInvalid && st.delta != nil:
		why = "a refinement is already pending"
	case d == nil:
	case r.lastPass(p.Number):
		why = "no pass left to refine it"
	default:
		st.status, st.delta, f.OnFail = engine.StatusInvalid, d, "refine"
	}
	if why != "" {
		f.Message += " (" + why + ")"
	}
	st.dispute = ""
	if st.status == engine.StatusCompleted {
		st.dispute = f.Message
	}
	r.finding(p, st, f)
}

// validatorDelta is the refinement st gets from the first of the verdict's
// deltas that targets st and keeps the question, or nil and why none does.
// A delta on another step, one that drops or replaces a filter the
// question asked for (its period, its constraints), or one that lowers the
// limit below the records the step holds would change a step the verdict
// is not about or answer another question: it is not applied.
func (r *run) validatorDelta(st *stepState, sv sdk.StepVerdict, issue string) (*pendingDelta, string) {
	why := "no delta suggested"
	for _, d := range sv.Deltas {
		if d.Step != "" && d.Step != st.id {
			why = "its delta targets " + d.Step + ", not the step judged"
			continue
		}
		if k := r.askedFilter(st, d); k != "" {
			why = fmt.Sprintf("its delta would drop the question's %q filter and answer another question", k)
			continue
		}
		if held := len(st.out.Records) + st.out.Omitted.count(); d.Limit > 0 && d.Limit < held {
			why = fmt.Sprintf("its delta would cut the step to %d of its %d records and answer from part of the evidence", d.Limit, held)
			continue
		}
		because := clip(d.Justification, maxIssueText)
		if because == "" {
			because = issue
		}
		pd := &pendingDelta{op: d.Op, limit: d.Limit, description: summary(d.Description, maxDescription), because: "validator: " + because, keep: true, dispute: issue}
		pd.drop = slices.Clone(d.DropFilters[:min(len(d.DropFilters), maxDeltaFilters)])
		for _, s := range d.SetFilters[:min(len(d.SetFilters), maxDeltaFilters)] {
			if pd.set == nil {
				pd.set = map[string][]string{}
			}
			pd.set[s.Key] = s.Values[:min(len(s.Values), maxDeltaValues):min(len(s.Values), maxDeltaValues)]
		}
		return pd, ""
	}
	return nil, why
}

// askedFilter is a filter of st the question asked for that d drops, sets
// to other values or replaces away, or "".
func (r *run) askedFilter(st *stepState, d sdk.Delta) string {
	asked := r.plan.Reasoning.Entities
	for _, k := range d.DropFilters {
		if _, ok := asked[k]; ok {
			return k
		}
	}
	for _, s := range d.SetFilters {
		if _, ok := asked[s.Key]; ok {
			return s.Key
		}
	}
	if d.Op == OpReplace {
		for _, k := range sortedKeys(r.stepFilters(st)) {
			if _, ok := asked[k]; ok {
				return k
			}
		}
	}
	return ""
}
