package engine

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// ValidatePlan checks plan, before anything runs, against what its sources
// are and serve (sources) and what its steps need, refines it where a
// refinement exists and records both in plan.Validation (nil when there is
// nothing to say). It does no I/O: the facts come from the rules
// (SourceFactsFromRules) and, once plugins run, from them (DescribeSources).
//
// The checks, in order:
//   - each retrieval runs on a source that is configured and serves the
//     record kind it needs; if not, it is rebound (REPLACE) to another such
//     source, the highest priority first, else dropped (REMOVE) and the
//     report says so;
//   - each retrieve step has a retrieval left to run and each agent step a
//     declared agent;
//   - the budgets fit: the agents' timeouts along the critical path against
//     the run's TTL, each retrieval's limit against its max_records (the
//     loop's, or the depth's chosen for the question).
//
// Required entities (an intent's requires) are checked by the planner, as
// missing_entity ambiguities (Plan.Ambiguities): a blocking one stops the
// question before ValidatePlan runs.
func ValidatePlan(plan *Plan, sources []SourceFacts) {
	v := validation{plan: plan, sources: sources}
	v.bindSources()
	v.checkSteps()
	v.checkBudgets()
	if len(v.out.Findings) > 0 {
		plan.Validation = &v.out
	}
}

// validation is one ValidatePlan call's state.
type validation struct {
	plan    *Plan
	sources []SourceFacts
	out     PlanValidation
	dropped map[string][]removed // by step ID: the retrievals it ran that were removed
}

// removed is a retrieval ValidatePlan removed, and why.
type removed struct{ id, reason string }

// find records a finding.
func (v *validation) find(sev Severity, code, target, format string, args ...any) {
	v.out.Findings = append(v.out.Findings, PlanFinding{Severity: sev, Code: code, Target: target, Message: fmt.Sprintf(format, args...)})
}

// source is the facts of the source named name, nil when it is not declared.
func (v *validation) source(name string) *SourceFacts {
	for i := range v.sources {
		if v.sources[i].Name == name {
			return &v.sources[i]
		}
	}
	return nil
}

// bindSources rebinds or drops every retrieval whose source cannot serve it.
func (v *validation) bindSources() {
	r := &v.plan.Retrieval
	keep := make([]bool, len(r.Plans))
	for i := range r.Plans {
		keep[i] = v.bind(&r.Plans[i])
		if keep[i] && i < len(r.Queries) {
			r.Queries[i].Source = r.Plans[i].Sources[0]
		}
	}
	if !slices.Contains(keep, false) {
		return
	}
	// Drop the removed plans, keeping IDs, and renumber the steps' indexes.
	index := make([]int, len(r.Plans))
	plans, queries := r.Plans[:0:0], r.Queries[:0:0]
	for i := range r.Plans {
		index[i] = -1
		if keep[i] {
			index[i] = len(plans)
			plans = append(plans, r.Plans[i])
			if i < len(r.Queries) {
				queries = append(queries, r.Queries[i])
			}
		}
	}
	r.Plans, r.Queries = plans, queries
	for s := range v.plan.Steps {
		st := &v.plan.Steps[s]
		var left []int
		for _, pi := range st.Plans {
			if pi >= 0 && pi < len(index) && index[pi] >= 0 {
				left = append(left, index[pi])
			}
		}
		st.Plans = left
	}
}

// bind checks one retrieval's sources, rebinding or dropping those that
// cannot serve it; it reports whether the retrieval keeps a source.
func (v *validation) bind(p *RetrievalPlan) bool {
	var kept []string
	var why []string
	for _, name := range p.Sources {
		s := v.source(name)
		if s != nil && s.serves(p.Kind) {
			kept = append(kept, name)
			continue
		}
		problem := v.problem(name, s, p.Kind)
		if alt := v.alternative(p); alt != "" {
			v.find(SeverityWarning, problemCode(s), p.ID, "%s: %s; rebound to source %q", p.ID, problem, alt)
			v.out.Refinements = append(v.out.Refinements, PlanRefinement{Op: OpReplace, Target: p.ID, Step: p.Hypothesis, From: name, To: alt,
				Justification: fmt.Sprintf("%s, and source %q serves %s", problem, alt, kindText(p.Kind))})
			kept = append(kept, alt)
			continue
		}
		why = append(why, problem)
	}
	if len(kept) > 0 {
		p.Sources = kept
		return true
	}
	reason := fmt.Sprintf("no configured source serves %s; %s", kindText(p.Kind), strings.Join(why, "; "))
	v.find(SeverityWarning, "retrieval_dropped", p.ID, "%s (%s) removed: no configured source serves %s", p.ID, p.Description, kindText(p.Kind))
	was := *p
	v.out.Refinements = append(v.out.Refinements, PlanRefinement{Op: OpRemove, Target: p.ID, Step: p.Hypothesis, Justification: reason, Plan: &was})
	v.notRetrieved(p.Description, reason)
	if p.Hypothesis != "" {
		if v.dropped == nil {
			v.dropped = map[string][]removed{}
		}
		v.dropped[p.Hypothesis] = append(v.dropped[p.Hypothesis], removed{p.ID, reason})
	}
	return false
}

// notRetrieved says in the caveats that the retrieval described desc is
// dropped for reason, in one caveat with the others dropped for the same
// reason.
func (v *validation) notRetrieved(desc, reason string) {
	tail := " — " + reason + "."
	for i, c := range v.out.Caveats {
		if strings.HasSuffix(c, tail) {
			v.out.Caveats[i] = strings.TrimSuffix(c, tail) + "; " + desc + tail
			return
		}
	}
	v.out.Caveats = append(v.out.Caveats, "Not retrieved: "+desc+tail)
}

// problem says why source s (named name) cannot serve a retrieval of kind.
func (v *validation) problem(name string, s *SourceFacts, kind string) string {
	switch {
	case s == nil:
		return fmt.Sprintf("source %q is not declared", name)
	case s.Problem != "":
		return fmt.Sprintf("source %q is %s", name, strings.TrimPrefix(s.Problem, "is "))
	}
	return fmt.Sprintf("source %q serves %s, not %s", name, strings.Join(s.Kinds, ", "), kindText(kind))
}

// problemCode is the finding's code for source s that cannot serve.
func problemCode(s *SourceFacts) string {
	if s == nil || s.Problem != "" {
		return "source_unavailable"
	}
	return "kind_not_served"
}

// alternative is the source a retrieval can be rebound to: one known to
// serve its kind, not already among its sources, highest priority first,
// then in the rules' order; "" when there is none.
func (v *validation) alternative(p *RetrievalPlan) string {
	best := -1
	for i := range v.sources {
		s := &v.sources[i]
		if !s.knownToServe(p.Kind) || slices.Contains(p.Sources, s.Name) {
			continue
		}
		if best < 0 || s.Priority > v.sources[best].Priority {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return v.sources[best].Name
}

// kindText names a record kind for a message.
func kindText(kind string) string {
	if kind == "" {
		return "its records"
	}
	return kind + " records"
}

// checkSteps finds the steps that lack what they need: a retrieve step with
// no retrieval to run (its step completes as partial, saying why), an
// agent step whose agent the rules do not declare.
func (v *validation) checkSteps() {
	for i, st := range v.plan.Steps {
		h := v.hypothesis(i)
		switch {
		case st.Action == ActionRetrieve && len(st.Plans) == 0:
			why, note := "its intent has no retrieval for it", ""
			for i, d := range v.dropped[st.ID] {
				if i == 0 {
					why, note = d.reason, d.id
					continue
				}
				why, note = why+"; "+d.reason, note+", "+d.id
			}
			if note == "" {
				note = why
			} else {
				note += " removed"
			}
			v.find(SeverityWarning, "step_unserved", st.ID, "%s (%s) has nothing to retrieve: %s", st.ID, h.Description, note)
			if v.out.Unserved == nil {
				v.out.Unserved = map[string]string{}
			}
			v.out.Unserved[st.ID] = why
		case st.Role != RoleNone && v.plan.Policy != nil:
			if _, ok := v.plan.Policy.Agents[st.Agent]; !ok {
				v.find(SeverityWarning, "agent_undeclared", st.ID, "%s (%s) runs agent %q, which the rules do not declare", st.ID, h.Description, st.Agent)
			}
		}
	}
}

// hypothesis is step i's hypothesis (a zero one if the plan lacks it).
func (v *validation) hypothesis(i int) Hypothesis {
	if i < len(v.plan.Reasoning.Hypotheses) {
		return v.plan.Reasoning.Hypotheses[i]
	}
	return Hypothesis{}
}

// checkBudgets compares the worst case of the agent calls on the critical
// path (each at its timeout) with the run's TTL, and each retrieval's limit
// with its max_records: the loop's, or the chosen depth's.
func (v *validation) checkBudgets() {
	pol := v.plan.Policy
	if pol == nil {
		return
	}
	lim := pol.Limits
	if pr := v.plan.Profile; pr != nil {
		lim = pr.Depth.Limits(lim) // the depth chosen for the question
	}
	if lim.TTL > 0 {
		if worst, path := v.criticalPath(pol, lim.TTL); worst > lim.TTL {
			v.find(SeverityInfo, "budget_exceeds_ttl", "", "the agents on the critical path %s may take up to %s at their timeouts, more than the TTL %s: slow agents end the run at the TTL",
				path(), worst, lim.TTL)
		}
	}
	if lim.MaxRecords > 0 {
		for _, p := range v.plan.Retrieval.Plans {
			if p.Limit > lim.MaxRecords {
				v.find(SeverityInfo, "limit_exceeds_max_records", p.ID, "%s asks for up to %d records; a step holds max_records %d and only counts the rest", p.ID, p.Limit, lim.MaxRecords)
			}
		}
	}
}

// pathStep is a step's place on the longest path ending at it.
type pathStep struct {
	cost time.Duration // the agents' timeouts along it
	prev int           // the step before it on that path; -1 at its start
}

// criticalPath is the dependency path whose agent calls take longest at
// their timeouts, and a function that names its steps ("h0 → h2"). The
// plan's dependencies are acyclic (the planner breaks cycles), so
// relaxing every edge once per step settles every path.
func (v *validation) criticalPath(pol *Policy, ttl time.Duration) (time.Duration, func() string) {
	steps := v.plan.Steps
	hyps := v.plan.Reasoning.Hypotheses
	if len(steps) == 0 || len(hyps) != len(steps) {
		return 0, nil
	}
	var buf [stackSteps]pathStep
	ps := buf[:0]
	if len(steps) > len(buf) {
		ps = make([]pathStep, 0, len(steps))
	}
	for i := range steps {
		ps = append(ps, pathStep{cost: stepBudget(pol, steps[i]), prev: -1})
	}
	for range steps {
		changed := false
		for i := range hyps {
			own := stepBudget(pol, steps[i])
			for _, d := range hyps[i].Dependencies {
				j := stepOf(hyps, d)
				if j < 0 {
					continue
				}
				// Ties keep the first dependency, so the path names its steps.
				if c := ps[j].cost + own; c > ps[i].cost || c == ps[i].cost && ps[i].prev < 0 {
					ps[i].cost, ps[i].prev, changed = c, j, true
				}
			}
		}
		if !changed {
			break
		}
	}
	end := 0
	for i := range ps {
		if ps[i].cost > ps[end].cost {
			end = i
		}
	}
	worst := ps[end].cost
	var prev []int
	if worst > ttl { // only a finding names the path
		prev = make([]int, len(ps))
		for i := range ps {
			prev[i] = ps[i].prev
		}
	}
	return worst, func() string {
		var path []string
		for i := end; i >= 0; i = prev[i] {
			path = append(path, steps[i].ID)
		}
		slices.Reverse(path)
		return strings.Join(path, " → ")
	}
}

// stepOf is the position of the hypothesis with id, -1 if none.
func stepOf(hyps []Hypothesis, id string) int {
	for i := range hyps {
		if hyps[i].ID == id {
			return i
		}
	}
	return -1
}

// stepBudget is how long a step's agent calls may take at their timeouts: a
// writer step also calls the analyst and the critic when they are declared.
func stepBudget(pol *Policy, st Step) time.Duration {
	if st.Role == RoleNone {
		return 0
	}
	d := pol.Agents[st.Agent].Timeout
	if st.Role == RoleWriter {
		for _, r := range []Role{RoleAnalyst, RoleCritic} {
			if a, ok := pol.Agents[string(r)]; ok {
				d += a.Timeout
			}
		}
	}
	return d
}
