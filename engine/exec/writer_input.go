package exec

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/nous-dev/nous/sdk"
)

// questionPeriod is the period the question asks about, for the writer: the
// interpretation's dates, else the dates entity resolved.
func (r *run) questionPeriod() *sdk.TimeRange {
	if in := r.plan.Interpretation; in != nil && in.Dates != nil && (!in.Dates.Since.IsZero() || !in.Dates.Until.IsZero()) {
		return &sdk.TimeRange{Since: in.Dates.Since, Until: in.Dates.Until}
	}
	return r.temporal()
}

// writerCaveats are what the writer of st's intent must not gloss over:
// the constraints a source of the intent cannot apply, those no source
// knows, and the intent's sources that could not be asked.
func (r *run) writerCaveats(st *stepState) []string {
	in := r.plan.Interpretation
	if in == nil {
		return nil
	}
	sources := r.understand(r.intentOf(st)).sources
	var out []string
	for _, c := range in.Unapplied {
		if c.Source != "" && !slices.Contains(sources, c.Source) {
			continue
		}
		s := fmt.Sprintf("the %s constraint %q was not applied", c.Key, c.Value)
		if c.Source != "" {
			s += " by " + c.Source
		}
		out = append(out, withReason(s, c.Reason))
	}
	for _, c := range in.Unknown {
		out = append(out, withReason(fmt.Sprintf("%q (%s) is known to no source and was left out", cmp.Or(c.Phrase, c.Value), c.Key), c.Reason))
	}
	for _, v := range in.Sources {
		if v.Error != "" && slices.Contains(sources, v.Name) {
			out = append(out, fmt.Sprintf("source %s could not be asked: %s", v.Name, oneLine(v.Error)))
		}
	}
	return out
}

func withReason(s, reason string) string {
	if reason == "" {
		return s
	}
	return s + " (" + oneLine(reason) + ")"
}
