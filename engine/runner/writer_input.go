package runner

import (
	"fmt"
	"slices"

	"github.com/nous-dev/nous/sdk"
)

// intentPeriod is the period intent idx's retrievals applied, for its
// agents; nil when they applied none, or when only some did and their
// kinds are not known (no record could be told to be in it).
func (r *run) intentPeriod(idx int) *sdk.TimeRange {
	if u := r.understand(idx); (!u.since.IsZero() || !u.until.IsZero()) && (!u.partPeriod || len(u.periodKinds) > 0) {
		return &sdk.TimeRange{Since: u.since, Until: u.until, Kinds: u.periodKinds}
	}
	return nil
}

// writerCaveats are what the writer of st's intent must not gloss over:
// the constraints the answer does not apply, its ranked retrievals'
// records about part of the question or none of it, and the sources of
// the intent that are not available or failed. Only the steps st depends
// on are read: they settled before it started, while another chain of
// the intent may be running on another worker.
func (r *run) writerCaveats(st *stepState) []string {
	out := r.constraintCaveats()
	idx := r.intentOf(st)
	sources := r.understand(idx).sources
	said := map[string]bool{}
	if in := r.plan.Interpretation; in != nil {
		for _, v := range in.Sources {
			if v.Error != "" && slices.Contains(sources, v.Name) && !said[v.Name] {
				said[v.Name] = true
				out = append(out, fmt.Sprintf("Source %q is not available: %s.", v.Name, sentence(r.redactErr(fmt.Errorf("%s", v.Error)).Error())))
			}
		}
	}
	upstream := r.upstream(st)
	for _, s := range r.intentSteps(idx) {
		if !upstream[s] {
			continue // not its evidence, and maybe running beside it
		}
		if why := r.relevance(s); why != "" {
			out = append(out, why) // records about part of the question, or none: not High
		}
		for _, f := range s.out.Failed {
			if !said[f.Source] {
				said[f.Source] = true
				out = append(out, r.failureText(f, "the answer uses them"))
			}
		}
	}
	return out
}

// upstream is the steps st depends on, directly or not.
func (r *run) upstream(st *stepState) map[*stepState]bool {
	seen := map[*stepState]bool{}
	var visit func(*stepState)
	visit = func(s *stepState) {
		for _, id := range s.deps {
			if d := r.byID[id]; d != nil && !seen[d] {
				seen[d] = true
				visit(d)
			}
		}
	}
	visit(st)
	return seen
}
