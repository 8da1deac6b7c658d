package runner

import (
	"fmt"
	"strconv"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/rules/cond"
)

// depthOf returns the budget of the depth the plan chose (the policy's
// limits when it chose none) and that depth's index among the policy's
// levels, -1 when the run cannot re-assess it.
func depthOf(plan *engine.Plan) (engine.Limits, int) {
	pr, ds := plan.Profile, plan.Policy.Depths
	if pr == nil {
		return plan.Policy.Limits, -1
	}
	at := -1
	if ds != nil {
		at = ds.Index(pr.Depth.Level)
	}
	return pr.Depth.Limits(plan.Policy.Limits), at
}

// depthName is the name of the depth the run is at, "" without one.
func (r *run) depthName() string {
	if r.depthAt >= 0 {
		return r.plan.Policy.Depths.Levels[r.depthAt].Name
	}
	if pr := r.plan.Profile; pr != nil {
		return pr.Depth.Name
	}
	return ""
}

// lastPass reports whether pass n is the last the run can have: the
// current depth allows no more, and no deeper level would.
func (r *run) lastPass(n int) bool {
	if n < r.loop.MaxPasses {
		return false
	}
	if r.depthAt < 0 {
		return true
	}
	for _, l := range r.plan.Policy.Depths.Levels[r.depthAt+1:] {
		if n < l.Depth.Limits(r.plan.Policy.Limits).MaxPasses {
			return false
		}
	}
	return true
}

// profiled records the task profile and its depth in the trace.
func (r *run) profiled() {
	pr := r.plan.Profile
	if pr == nil {
		return
	}
	d := pr.Dimensions
	r.trace.Add(trace.Entry{
		Stage: trace.Planning,
		Thought: fmt.Sprintf("Task profile: %d intent(s), %d retrieval(s) over %d source(s), %d constraint(s), %d step(s): depth %s (level %d)",
			d.Intents, d.Retrievals, d.Sources, d.Constraints, d.Hypotheses, pr.Depth.Name, pr.Depth.Level),
		Action: "profile", Parameters: r.param(trace.Param{Key: "depth", Value: pr.Depth.Name}, trace.Param{Key: "level", Value: pr.Depth.Level},
			trace.Param{Key: "max_passes", Value: r.loop.MaxPasses}, trace.Param{Key: "ttl", Value: r.loop.TTL.String()}, trace.Param{Key: "max_records", Value: r.loop.MaxRecords}),
		Evidence: []string{pr.Reason}, Outcome: trace.Success,
	})
}

// reassess moves the run's depth by at most one level after pass p,
// as the rules' profile block says, and returns the pass budget from now
// on, 0 when it did not change. A deeper level's TTL moves the deadline
// to the run's start plus that TTL; a shallower one never takes back time
// already granted.
func (r *run) reassess(p *history.Pass) int {
	ds := r.plan.Policy.Depths
	if r.depthAt < 0 {
		return 0
	}
	pass := cond.Pass{Number: p.Number, Failed: p.Validation.Failed, Warnings: p.Validation.Warnings,
		NeedRefinement: len(p.Convergence.NeedRefine), FailedSteps: len(p.Convergence.Failed)}
	for _, s := range p.Steps {
		if s.Action == string(engine.ActionRetrieve) {
			pass.Records += s.Records
		}
	}
	dims := cond.Profile(r.plan.Profile.Dimensions)
	types := make([]string, len(r.plan.Reasoning.Intents))
	for i, in := range r.plan.Reasoning.Intents {
		types[i] = in.Type
	}
	env := cond.ProfileEnv{Query: r.plan.Query, Mode: r.plan.Mode, IntentTypes: types, Entities: r.plan.Reasoning.Entities, Profile: &dims, Pass: &pass}
	at, why, err := ds.Reassess(&env, r.depthAt)
	if err != nil {
		r.e.opts.Logger.Warn("depth re-assessment: a condition failed; treated as false", "err", r.redactErr(err))
	}
	if at == r.depthAt {
		return 0
	}
	from, to := ds.Levels[r.depthAt].Depth, ds.Levels[at].Depth
	deeper := at > r.depthAt
	r.depthAt, r.loop = at, to.Limits(r.plan.Policy.Limits)
	if deadline := r.began.Add(r.loop.TTL); deeper && deadline.After(r.deadline) {
		r.deadline = deadline
	}
	p.DepthChange = &history.DepthChange{From: from.Name, To: to.Name, Level: to.Level, MaxPasses: r.loop.MaxPasses,
		TTL: r.loop.TTL.String(), MaxRecords: r.loop.MaxRecords, Reason: why}
	move := "shallower"
	if deeper {
		move = "deeper"
	}
	r.trace.Add(trace.Entry{
		Stage:   trace.Correction,
		Thought: "Depth " + move + " after pass " + strconv.Itoa(p.Number) + ": " + from.Name + " → " + to.Name,
		Action:  "depth", Parameters: r.param(trace.Param{Key: "depth", Value: to.Name}, trace.Param{Key: "level", Value: to.Level},
			trace.Param{Key: "max_passes", Value: r.loop.MaxPasses}, trace.Param{Key: "ttl", Value: r.loop.TTL.String()}, trace.Param{Key: "max_records", Value: r.loop.MaxRecords}),
		Evidence: []string{why}, Outcome: trace.Success,
	})
	r.notify(Event{Kind: "depth", Pass: p.Number, Status: to.Name, Detail: from.Name + " → " + to.Name + " (" + why + ")"})
	return r.loop.MaxPasses
}
