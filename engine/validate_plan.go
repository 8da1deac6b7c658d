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
//   - when it rebound or dropped a retrieval, the task profile and depth
//     are counted again over what is left;
//   - each retrieve step has a retrieval left to run and each agent step a
//     declared agent;
//   - the budgets fit: each agent's timeout against the run's TTL, each
//     retrieval's limit against its max_records (the loop's, or the depth's
//     chosen for the question).
//
// Required entities (an intent's requires) are checked by the planner, as
// missing_entity ambiguities (Plan.Ambiguities): a blocking one stops the
// question before ValidatePlan runs.
func ValidatePlan(plan *Plan, sources []SourceFacts) {
	v := validation{plan: plan, sources: sources}
	v.bindSources()
	if len(v.out.Refinements) > 0 { // what runs changed: count it again
		reprofile(plan)
	}
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

// checkBudgets compares each agent's timeout with the run's TTL, and each
// retrieval's limit with its max_records: the loop's, or the chosen depth's.
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
		v.agentsOverTTL(pol, lim.TTL)
	}
	if lim.MaxRecords > 0 {
		for _, p := range v.plan.Retrieval.Plans {
			if p.Limit > lim.MaxRecords {
				v.find(SeverityInfo, "limit_exceeds_max_records", p.ID, "%s asks for up to %d records; a step holds max_records %d and only counts the rest", p.ID, p.Limit, lim.MaxRecords)
			}
		}
	}
}

// agentsOverTTL finds each agent a step of the plan calls (a writer step
// also the declared analyst and critic) whose own timeout is longer than
// ttl: one slow answer would end the run. Timeouts are upper bounds, so
// their sum along a path is not a finding.
func (v *validation) agentsOverTTL(pol *Policy, ttl time.Duration) {
	var said []string
	for _, st := range v.plan.Steps {
		if st.Role == RoleNone {
			continue
		}
		names := []string{st.Agent}
		if st.Role == RoleWriter {
			names = append(names, string(RoleAnalyst), string(RoleCritic))
		}
		for _, name := range names {
			a, ok := pol.Agents[name]
			if !ok || a.Timeout <= ttl || slices.Contains(said, name) {
				continue
			}
			said = append(said, name)
			v.find(SeverityWarning, "budget_exceeds_ttl", st.ID, "agent %q may take up to %s (its timeout), longer than the TTL %s: one slow answer ends the run; raise the TTL or lower the timeout",
				name, a.Timeout, ttl)
		}
	}
}
