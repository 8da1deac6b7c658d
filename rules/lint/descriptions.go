package lint

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// descriptions reports hypotheses and retrieves without a description: the
// description is what the plan shows and what query strings start with.
func descriptions(rs *rules.Ruleset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, in := range rs.Intents {
		for _, h := range in.Hypotheses {
			if h.Description == "" {
				diags = append(diags, rules.Warning(rules.CheckMissingDescription, h.Range,
					fmt.Sprintf("Hypothesis %q has no description", h.Name),
					fmt.Sprintf("Intent %q: the description is what the plan shows for this step.", in.Name)))
			}
		}
		for _, r := range in.Retrievals {
			if r.Description == "" {
				diags = append(diags, rules.Warning(rules.CheckMissingDescription, r.Range,
					fmt.Sprintf("Retrieve %q has no description", r.Name),
					fmt.Sprintf("Intent %q: the description is what the plan shows and starts the query string.", in.Name)))
			}
		}
	}
	return diags
}
