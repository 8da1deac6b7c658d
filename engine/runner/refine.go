package runner

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/trace"
)

// Refinement operations: the plan validation's (engine.ValidatePlan).
const (
	OpAdd     = engine.OpAdd
	OpModify  = engine.OpModify
	OpRemove  = engine.OpRemove
	OpReplace = engine.OpReplace
)

// refine applies the deltas validation asked for to the invalid steps, in
// plan order, within the per-step and global limits. Only invalid steps
// (which ran but did not validate) and pending steps are touched; a
// completed or failed step never is. It reports whether any delta applied.
func (r *run) refine(p *history.Pass) bool {
	applied := false
	for _, st := range slices.Clone(r.steps) {
		if st.status != engine.StatusInvalid {
			continue
		}
		d := st.delta
		if d == nil {
			d = &pendingDelta{op: OpModify, because: "validation failed without a refine block"}
		}
		ref := history.Refinement{Op: d.op, Step: st.id, DropFilters: d.drop, SetFilters: d.set, Limit: d.limit, Nearest: d.nearest,
			Description: d.description, Justification: d.because}
		switch {
		case st.attempts >= r.loop.RefinePerStep:
			ref.Refused = fmt.Sprintf("refinement limit reached: %d per step", r.loop.RefinePerStep)
		case r.refinedTotal >= r.loop.RefineTotal:
			ref.Refused = fmt.Sprintf("refinement limit reached: %d in total", r.loop.RefineTotal)
		case !r.changes(st, d):
			ref.Refused = "refinement would not change the step"
		}
		if ref.Refused != "" {
			switch {
			case d.keep: // the step ran fine; the validator doubts it, and that is said
				st.status, st.dispute, st.delta = engine.StatusCompleted, d.dispute+" ("+ref.Refused+")", nil
			case d.review == nil && len(d.search) == 0: // a writer step stays invalid: the writer composes what it has at the end
				st.status, st.err = engine.StatusFailed, fmt.Errorf("%s; last problem: %s", ref.Refused, d.because)
			}
			r.correction(st, ref, trace.Failed)
			p.Refinements = append(p.Refinements, ref)
			continue
		}
		st.attempts++
		r.refinedTotal++
		st.delta = nil
		r.rerunDependents(st)
		ref.NewStep = r.apply(st, d)
		ref.Applied = true
		r.correction(st, ref, trace.Success)
		p.Refinements = append(p.Refinements, ref)
		applied = true
	}
	return applied
}

// apply performs delta d on st and returns the ID of a step it added.
func (r *run) apply(st *stepState, d *pendingDelta) string {
	if len(d.search) > 0 {
		return r.addSearch(st, d.search)
	}
	switch d.op {
	case OpRemove:
		st.status = engine.StatusRemoved
		st.out = output{}
		return ""
	case OpAdd:
		// The step keeps what it produced; a sibling with the delta runs
		// next to it and every pending dependent waits for both.
		st.status = engine.StatusCompleted
		added := &stepState{
			id: st.id + ".r" + strconv.Itoa(st.attempts), hyp: st.hyp, step: st.step, deps: slices.Clone(st.deps),
			plans: slices.Clone(st.plans), status: engine.StatusPending, origin: st.id,
		}
		hyp := *st.hyp
		hyp.ID, hyp.Dependencies = added.id, slices.Clone(st.deps)
		added.hyp = &hyp
		applyChanges(added, d)
		for _, other := range r.steps {
			if other.status == engine.StatusPending && slices.Contains(other.deps, st.id) {
				other.deps = append(other.deps, added.id)
			}
		}
		r.steps = append(r.steps, added)
		r.byID[added.id] = added
		return added.id
	case OpReplace:
		st.replace = true
		st.drop, st.set = nil, nil
	}
	st.status = engine.StatusPending
	applyChanges(st, d)
	if d.review != nil {
		st.review, st.draft = d.review, st.out.Draft
	}
	return ""
}

// applyChanges gives st the filters, limit, look-around and description d
// asks for.
func applyChanges(st *stepState, d *pendingDelta) {
	if d.description != "" {
		hyp := *st.hyp
		hyp.Description = d.description
		st.hyp = &hyp
	}
	for _, k := range d.drop {
		if !slices.Contains(st.drop, k) {
			st.drop = append(st.drop, k)
		}
	}
	if len(d.set) > 0 {
		if st.set == nil {
			st.set = map[string][]string{}
		}
		maps.Copy(st.set, d.set)
	}
	if d.limit > 0 {
		st.limit = d.limit
	}
	if d.nearest != "" {
		st.nearest = d.nearest
	}
}

// rerunDependents makes every completed step that used st's result,
// directly or through another, pending again: a refinement of st changes
// their input. They run again; no result is edited. (A step validation
// holds at settle has no completed dependents; one the validator judges
// after the pass may.)
func (r *run) rerunDependents(st *stepState) {
	stale := []string{st.id}
	for i := 0; i < len(stale); i++ {
		for _, other := range r.steps {
			if other.status == engine.StatusCompleted && slices.Contains(other.deps, stale[i]) {
				other.status, other.dispute = engine.StatusPending, ""
				stale = append(stale, other.id)
			}
		}
	}
}

// correction records a refinement in the trace.
func (r *run) correction(st *stepState, ref history.Refinement, outcome trace.Outcome) {
	params := trace.Params{{Key: "op", Value: ref.Op}, {Key: "step", Value: st.id}}
	if len(ref.DropFilters) > 0 {
		params = append(params, trace.Param{Key: "drop_filters", Value: strings.Join(ref.DropFilters, ",")})
	}
	if ref.Nearest != "" {
		params = append(params, trace.Param{Key: "nearest", Value: ref.Nearest})
	}
	if ref.NewStep != "" {
		params = append(params, trace.Param{Key: "new_step", Value: ref.NewStep})
	}
	e := trace.Entry{Stage: trace.Correction, Thought: fmt.Sprintf("%s %s: %s", ref.Op, st.id, ref.Justification),
		Action: "refine", Parameters: params, Outcome: outcome, Corrections: []string{ref.Justification}}
	if ref.Refused != "" {
		e.Error = ref.Refused
	}
	if ref.Op == OpRemove && ref.Applied {
		e.Fulfills = []string{"step:" + st.id} // removed on purpose, nothing left owed
	}
	r.trace.Add(e)
	r.e.opts.Logger.Debug("refinement", "op", ref.Op, "step", st.id, "applied", ref.Applied, "refused", ref.Refused)
	detail := ref.Justification
	if ref.Refused != "" {
		detail += " (not applied: " + ref.Refused + ")"
	}
	r.notify(Event{Kind: "refine", Step: st.id, Description: st.hyp.Description, Status: ref.Op, Detail: detail})
}

// changes reports whether applying d would run st differently; re-running
// an unchanged step would only spend a pass.
func (r *run) changes(st *stepState, d *pendingDelta) bool {
	switch {
	case len(d.search) > 0:
		return slices.ContainsFunc(d.search, func(q string) bool { return !slices.Contains(st.searched, q) })
	case d.op == OpRemove || d.op == OpAdd || d.review != nil || (d.description != "" && d.description != st.hyp.Description):
		return true
	case st.action() == "agent":
		return true // asking a model again may well give another answer
	case d.limit > 0 && d.limit != st.limit:
		return true
	case d.nearest != "" && d.nearest != st.nearest:
		return true
	}
	have := map[string]bool{}
	for k := range r.stepFilters(st) {
		have[k] = true
	}
	for _, k := range d.drop {
		if have[k] {
			return true
		}
	}
	for k, v := range d.set {
		if cur, ok := st.set[k]; !ok || !slices.Equal(cur, v) {
			return true
		}
	}
	return d.op == OpReplace && !st.replace
}

// addSearch adds a retrieve step that runs the analyst's queries on the
// plan's sources and makes st, reset to pending, wait for it.
func (r *run) addSearch(st *stepState, queries []string) string {
	id := st.id + ".s" + strconv.Itoa(st.attempts)
	g := &stepState{
		id: id, status: engine.StatusPending, search: slices.Clone(queries), sources: r.planSources(), origin: st.id, deps: []string{},
		hyp: &engine.Hypothesis{ID: id, Description: "Search for missing evidence: " + strings.Join(queries, "; "),
			Dependencies: []string{}, Intent: st.hyp.Intent, Name: st.hyp.Name + "_search", Action: engine.ActionRetrieve},
		step: &engine.Step{ID: id, Action: engine.ActionRetrieve},
	}
	r.steps = append(r.steps, g)
	r.byID[id] = g
	st.deps = append(st.deps, id)
	st.searched = append(st.searched, queries...)
	st.status = engine.StatusPending
	return id
}
