package template

import (
	"fmt"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// datesFilter is the filter a retrieval applies the question's period with.
const datesFilter = "dates"

// validate judges each step of a pass deterministically: a retrieval that
// applied the period the question names and found nothing in it is invalid
// (said, with no delta: widening the period or dropping a filter would
// answer another question), a writer whose answer counts more records than
// its evidence holds is invalid (composed again), a failed step is
// uncertain (nothing to judge), so is a ranked retrieval whose records
// match only some of the question's terms or none (its Relevance), every
// other step is valid.
func validate(cfg Config, in sdk.ValidatorInput) sdk.ValidatorOutput {
	l := labelsFor(cfg.Language)
	out := sdk.ValidatorOutput{Steps: make([]sdk.StepVerdict, 0, len(in.Steps))}
	for _, s := range in.Steps {
		v := sdk.StepVerdict{Step: s.ID, Verdict: sdk.VerdictValid, Issues: []string{}, Deltas: []sdk.Delta{}}
		switch {
		case s.Status == "failed":
			v.Verdict = sdk.VerdictUncertain
			v.Issues = append(v.Issues, "the step failed, so there is no result to judge: "+s.Error)
		case s.Action == "retrieve" && s.Records == 0 && in.Period != nil && len(s.Filters[datesFilter]) > 0:
			v.Verdict = sdk.VerdictInvalid
			v.Issues = append(v.Issues, fmt.Sprintf("no records in the period the question names (%s); "+
				"widening the period or dropping a filter would answer another question, so no delta is suggested", periodText(*in.Period)))
		case s.Action == "retrieve" && s.Relevance != "":
			v.Verdict = sdk.VerdictUncertain
			v.Issues = append(v.Issues, "its records answer only part of the question, or none of it: "+s.Relevance)
		case s.Role == sdk.RoleWriter:
			if wrong := contradictions(l, s); len(wrong) > 0 {
				v.Verdict, v.Issues = sdk.VerdictInvalid, wrong
				v.Deltas = append(v.Deltas, sdk.Delta{Op: "MODIFY", Step: s.ID, DropFilters: []string{}, SetFilters: []sdk.FilterSet{},
					Justification: "compose the answer again: its counts must not exceed the records it was given"})
			}
		}
		out.Steps = append(out.Steps, v)
	}
	return out
}

// contradictions are the counts the writer's answer states that its
// evidence does not hold: "30 commits" from 3 commits.
func contradictions(l *labels, s sdk.ValidatedStep) []string {
	holds := func(kind string) int {
		if kind == "record" {
			return s.Records
		}
		return s.Kinds[kind]
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range append(countClaims(s.Output), headingCounts(l, s.Output)...) {
		if have := holds(c.kind); c.n > have && !seen[c.text] {
			seen[c.text] = true
			noun := strings.ReplaceAll(c.kind, "_", " ")
			out = append(out, fmt.Sprintf("the answer claims %q but its evidence holds %s", c.text, plural(have, noun, noun+"s")))
		}
	}
	return out
}

// periodText is "2026-11-16 – 2026-11-22" for a half-open range.
func periodText(t sdk.TimeRange) string {
	return dayOr(t.Since, "…") + " – " + lastDayOr(t.Until, "…")
}
