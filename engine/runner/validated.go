package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/trace"
)

// What the run does with the plan validation's results (engine.ValidatePlan,
// before the first pass): a retrieve step left with nothing to run
// completes as partial, saying why, unless its intent has nothing left to
// retrieve at all (starved): then it fails with the reason and the
// intent's later steps are skipped, not run over nothing; the caveats open
// the report; and the validation is the trace's second planning entry.

// unserved says why st is a retrieve step with no retrieval left to run;
// "" when it has one.
func (r *run) unserved(st *stepState) string {
	if v := r.plan.Validation; v != nil && len(st.plans) == 0 && len(st.search) == 0 {
		return v.Unserved[st.id]
	}
	return ""
}

// starved reports whether st's intent has no retrieval left to run and
// the retrievals removed from st were required: the intent's later steps
// (its agents) would run over nothing. An optional retrieval (help's
// documentation) leaves the answer something to do without it.
func (r *run) starved(st *stepState) bool {
	idx := r.intentOf(st)
	for _, p := range r.plan.Retrieval.Plans {
		if h := r.byID[p.Hypothesis]; h == nil || r.intentOf(h) == idx {
			return false
		}
	}
	for _, ref := range r.plan.Validation.Refinements {
		if ref.Op == engine.OpRemove && ref.Step == st.id && ref.Plan != nil && ref.Plan.Optional {
			return false
		}
	}
	return true
}

// removedPlans are the retrievals the plan validation removed, as they
// were: what the question asked of them is still what it asked.
func (r *run) removedPlans() []engine.RetrievalPlan {
	v := r.plan.Validation
	if v == nil {
		return nil
	}
	var out []engine.RetrievalPlan
	for _, ref := range v.Refinements {
		if ref.Op == engine.OpRemove && ref.Plan != nil {
			out = append(out, *ref.Plan)
		}
	}
	return out
}

// validationCaveats are the plan validation's caveats: what was not
// retrieved, and why.
func (r *run) validationCaveats() []string {
	if v := r.plan.Validation; v != nil {
		return v.Caveats
	}
	return nil
}

// validatedSources are the sources the plan validation took retrievals
// off: its findings say why.
func (r *run) validatedSources() []string {
	v := r.plan.Validation
	if v == nil {
		return nil
	}
	var out []string
	for _, ref := range v.Refinements {
		switch {
		case ref.Op == engine.OpReplace:
			out = append(out, ref.From)
		case ref.Plan != nil:
			out = append(out, ref.Plan.Sources...)
		}
	}
	return out
}

// needsData reports whether the answer depends on a retrieval: the plan
// has a retrieve step whose retrievals (those the plan validation removed
// included) are not all optional, or that has none at all.
func (r *run) needsData() bool {
	for _, st := range r.steps {
		if st.action() == "retrieve" && !r.optional(st) {
			return true
		}
	}
	return false
}

// optional reports whether retrieve step st had retrievals and all were
// optional (required = false).
func (r *run) optional(st *stepState) bool {
	n := 0
	for _, pi := range st.plans {
		if pi < 0 || pi >= len(r.plan.Retrieval.Plans) || !r.plan.Retrieval.Plans[pi].Optional {
			return false
		}
		n++
	}
	if v := r.plan.Validation; v != nil {
		for _, ref := range v.Refinements {
			if ref.Plan != nil && ref.Step == st.id {
				if !ref.Plan.Optional {
					return false
				}
				n++
			}
		}
	}
	return n > 0
}

// foundNothing says what completed retrieve step st did not find when all
// its retrievals are optional and it holds no record: the answer lacks
// the support it looked for. "" otherwise.
func (r *run) foundNothing(st *stepState) string {
	if st.action() != "retrieve" || st.status != engine.StatusCompleted || len(st.out.Records) > 0 || st.out.Omitted.count() > 0 || len(st.plans) == 0 {
		return ""
	}
	var kinds, sources []string
	for _, pi := range st.plans {
		if pi < 0 || pi >= len(r.plan.Retrieval.Plans) {
			return ""
		}
		p := r.plan.Retrieval.Plans[pi]
		if !p.Optional {
			return ""
		}
		if !slices.Contains(kinds, p.Kind) {
			kinds = append(kinds, p.Kind)
		}
		for _, s := range p.Sources {
			if !slices.Contains(sources, s) {
				sources = append(sources, fmt.Sprintf("%q", s))
			}
		}
	}
	noun := "records"
	if len(kinds) == 1 && kinds[0] != "" {
		noun = pluralKind(kinds[0])
	}
	return fmt.Sprintf("no %s found on source %s", noun, strings.Join(sources, ", "))
}

// emptyCaveats say which optional retrievals found nothing, and which
// ranked retrievals found nothing relevant or records about only part of
// the question.
func (r *run) emptyCaveats() []string {
	var out []string
	for _, st := range r.steps {
		if why := r.irrelevant(st); why != "" {
			out = append(out, why)
			continue
		}
		if why := r.foundNothing(st); why != "" {
			out = append(out, fmt.Sprintf("Nothing found for %q: %s.", st.hyp.Description, why))
		}
	}
	return out
}

// tracePlanValidation records the plan validation in the trace.
func (r *run) tracePlanValidation() {
	v := r.plan.Validation
	if v == nil {
		return
	}
	evidence := make([]string, 0, len(v.Findings)+len(v.Refinements))
	outcome := trace.Success
	for _, f := range v.Findings {
		evidence = append(evidence, fmt.Sprintf("%s %s: %s", f.Severity, f.Code, f.Message))
	}
	for _, ref := range v.Refinements {
		evidence = append(evidence, fmt.Sprintf("%s %s: %s", ref.Op, ref.Target, ref.Justification))
		if ref.Op == engine.OpRemove {
			outcome = trace.Partial
		}
	}
	r.trace.Add(trace.Entry{
		Stage: trace.Planning, Thought: "Check the plan against the sources before the first pass",
		Action: "validate_plan", Evidence: evidence, Outcome: outcome,
	})
}
