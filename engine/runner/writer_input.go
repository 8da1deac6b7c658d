package runner

import (
	"fmt"
	"slices"

	"github.com/nous-dev/nous/sdk"
)

// questionPeriod is the period the question asks about, for the agents:
// the interpretation's dates, else the dates entity resolved.
func (r *run) questionPeriod() *sdk.TimeRange {
	if in := r.plan.Interpretation; in != nil && in.Dates != nil && (!in.Dates.Since.IsZero() || !in.Dates.Until.IsZero()) {
		return &sdk.TimeRange{Since: in.Dates.Since, Until: in.Dates.Until}
	}
	return r.temporal()
}

// writerCaveats are what the writer of st's intent must not gloss over:
// the constraints the answer does not apply, and the sources of the
// intent that are not available or failed.
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
	for _, s := range r.intentSteps(idx) {
		for _, f := range s.out.Failed {
			if !said[f.Source] {
				said[f.Source] = true
				out = append(out, r.failureText(f))
			}
		}
	}
	return out
}
