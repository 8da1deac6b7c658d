package lint

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// actions warns about hypothesis actions the executor does not know.
func actions(rs *rules.Ruleset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, in := range rs.Intents {
		for _, h := range in.Hypotheses {
			switch {
			case h.Action != "" && !slices.Contains(rules.Actions, h.Action):
				diags = append(diags, rules.Warning(rules.CheckInvalidValue, h.Range,
					fmt.Sprintf("Unknown action %q", h.Action),
					fmt.Sprintf("Hypothesis %q of intent %q: the executor knows the actions %q; a step with any other fails.", h.Name, in.Name, rules.Actions)))
			case h.Action == "agent" && h.Role == "" && h.Agent == "":
				diags = append(diags, rules.Warning(rules.CheckInvalidValue, h.Range,
					fmt.Sprintf("Agent step %q names no agent or role", h.Name),
					fmt.Sprintf("Hypothesis %q of intent %q has action \"agent\" but neither agent nor role says which agent runs it.", h.Name, in.Name)))
			}
		}
	}
	return diags
}
