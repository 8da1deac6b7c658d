package lint

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// datesEntity is the entity the executor resolves into a request's period.
const datesEntity = "dates"

// refinements reports refine blocks that change the question instead of
// refining the answer: dropping the asked period makes the retried step
// answer for the whole history, and the report would present that as the
// answer to the period asked about.
func refinements(rs *rules.Ruleset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, c := range rs.Checks {
		ref := c.Refine
		if ref == nil || !slices.Contains(ref.DropFilters, datesEntity) {
			continue
		}
		if ref.Nearest != "" {
			diags = append(diags, rules.Warning(rules.CheckUnreachable, ref.Range, "Nearest refinement without a period",
				fmt.Sprintf("Check %q drops %q and asks for the nearest activity %s the period: with the period dropped there is nothing to look around, so nearest never applies.",
					c.Name, datesEntity, ref.Nearest)))
			continue
		}
		diags = append(diags, rules.Warning(rules.CheckChangesQuestion, ref.Range, "Refinement drops the asked period",
			fmt.Sprintf("Check %q drops %q when it fails: the retried step answers for the whole history, not the period asked about. "+
				"Use nearest = %q to look for the most recent activity before the period; the report then says the period was empty.",
				c.Name, datesEntity, rules.NearestBefore)))
	}
	return diags
}
