package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/runner"
)

// refinementNote is one refinement of a step, described.
type refinementNote struct{ step, text string }

// refinements describes, in pass order, what the loop changed about each
// step and why, so a reader sees when an answer rests on a widened search
// (a dropped dates filter, say) rather than on what was asked.
func refinements(res *runner.Result) []refinementNote {
	var out []refinementNote
	if res.History == nil {
		return out
	}
	for _, p := range res.History.Passes {
		for _, r := range p.Refinements {
			out = append(out, refinementNote{step: r.Step, text: describeRefinement(p.Number, r)})
		}
	}
	return out
}

// describeRefinement is one line: "pass 1: MODIFY, dropped filter dates —
// check …" (refused ones say why).
func describeRefinement(pass int, r history.Refinement) string {
	changes := []string{r.Op}
	if len(r.DropFilters) > 0 {
		changes = append(changes, "dropped filter "+strings.Join(r.DropFilters, ", "))
	}
	for _, k := range slices.Sorted(maps.Keys(r.SetFilters)) {
		changes = append(changes, fmt.Sprintf("set %s = %s", k, strings.Join(r.SetFilters[k], ", ")))
	}
	if r.Limit > 0 {
		changes = append(changes, fmt.Sprintf("limit %d", r.Limit))
	}
	if r.NewStep != "" {
		changes = append(changes, "added step "+r.NewStep)
	}
	line := fmt.Sprintf("pass %d: %s", pass, strings.Join(changes, ", "))
	if r.Justification != "" {
		line += " — " + r.Justification
	}
	if !r.Applied {
		line += " (not applied"
		if r.Refused != "" {
			line += ": " + r.Refused
		}
		line += ")"
	}
	return line
}
