package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
)

// ResultNeedsClarification is the status of a question asked back: it is
// ambiguous, nothing ran, and the result carries the question and options.
const ResultNeedsClarification = "needs_clarification"

// clarifyStep names the one step a clarification runs.
const clarifyStep = "clarify"

// Clarify asks the user back instead of running plan: the clarification
// agent (the agent block named after the role) words the question that
// amb leaves open and offers options, from the ambiguity's type, entity and
// candidates. No step runs and no source is asked. An agent that fails
// leaves the ambiguity's own words and candidates, and a caveat says why;
// the result still needs clarification, and err is nil.
func (e *Executor) Clarify(ctx context.Context, plan *engine.Plan, amb engine.Ambiguity) (*Result, error) {
	if err := runnable(plan); err != nil {
		return e.Run(ctx, plan) // the same failed result and error
	}
	r := newRun(e, plan)
	r.deadline = e.opts.Time.Now().Add(r.loop.TTL)
	if e.opts.LogDir != "" {
		r.openLogs()
	}
	hyp := &engine.Hypothesis{ID: clarifyStep, Description: "Ask back: " + amb.Message, Role: engine.RoleClarification}
	st := &stepState{id: clarifyStep, hyp: hyp, step: &engine.Step{ID: clarifyStep, Role: engine.RoleClarification, Agent: sdk.RoleClarification},
		status: engine.StatusRunning}
	st.entry = r.trace.Add(trace.Entry{Stage: trace.Planning, Thought: "The question is ambiguous (" + amb.Type + "): " + amb.Message,
		Action: "agent:" + sdk.RoleClarification, Parameters: r.param(trace.Param{Key: "ambiguity", Value: amb.Type})})
	r.startRun(st)
	c := newAgentCall(ctx, r, 1, st, nil, tally{})
	in := sdk.ClarificationInput{Query: plan.Query, AmbiguityType: amb.Type, Entity: amb.Entity, Message: amb.Message, Candidates: amb.Candidates,
		Conversation: e.opts.Conversation}
	var out sdk.ClarificationOutput
	res := &Result{ExecutionID: r.hist.ExecutionID, InteractionID: r.interaction, Query: plan.Query, Mode: plan.Mode, Status: ResultNeedsClarification, Ambiguity: &amb,
		Plan: plan, History: r.hist, Steps: []StepResult{}, Records: []sdk.Record{}}
	if err := c.invoke(sdk.RoleClarification, in, &out); err == nil {
		st.status = engine.StatusCompleted
	} else { // nous words it itself
		err = r.redactErr(err)
		out = sdk.ClarificationOutput{Question: "The question is ambiguous: " + amb.Message + ". Which do you mean?", Options: amb.Candidates}
		res.Caveats = append(res.Caveats, fmt.Sprintf("The clarification agent failed (%v), so the question is nous's own.", err))
		st.status, st.err = engine.StatusFailed, err
	}
	if out.Options == nil {
		out.Options = []string{}
	}
	res.Clarification = &out
	r.endRun(st)
	asked := history.Pass{Number: 1} // the trace and progress see the call; the history has no pass: none ran
	r.recordStep(&asked, st)
	r.hist.Termination = history.AskedBack
	res.Report = clarifyReport(plan, amb, out)
	res.Report = Compose(res)
	r.trace.Add(trace.Entry{Stage: trace.Finalization, Thought: "Asked back before running: " + out.Question, Action: "finalize", Outcome: trace.Partial})
	res.Trace = r.trace.Close()
	r.finalHistory(res)
	if r.logs != nil {
		if lerr := r.logs.LogSummary(r.hist); lerr != nil {
			e.opts.Logger.Warn("session summary", "err", lerr)
		}
	}
	r.notify(Event{Kind: "done", Status: res.Status, Detail: r.hist.Termination})
	return res, nil
}

// clarifyReport is the report of a question asked back: the question, its
// options numbered, what else the question leaves open, and how to answer.
func clarifyReport(plan *engine.Plan, amb engine.Ambiguity, out sdk.ClarificationOutput) string {
	var b strings.Builder
	b.WriteString(oneLine(out.Question))
	b.WriteString("\n\n")
	for i, o := range out.Options {
		fmt.Fprintf(&b, "%d. %s\n", i+1, oneLine(o))
	}
	if len(out.Options) > 0 {
		b.WriteByte('\n')
	}
	for _, other := range plan.Ambiguities {
		if other.Blocking && other.Message != amb.Message {
			fmt.Fprintf(&b, "Also open: %s.\n\n", oneLine(other.Message))
		}
	}
	if amb.Type == engine.AmbiguityMissingEntity {
		b.WriteString("nous ran nothing: ask again and name it.\n")
	} else {
		b.WriteString("nous ran nothing: ask again and say which you mean.\n")
	}
	return b.String()
}
