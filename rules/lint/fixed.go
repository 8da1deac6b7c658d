package lint

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// fixedFilters warns about a filter one retrieve of an intent fixes while
// another retrieve of the same intent takes it from the question: the
// question's value then applies to one retrieval and not to the other,
// which is rarely meant.
func fixedFilters(rs *rules.Ruleset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, in := range rs.Intents {
		for _, r := range in.Retrievals {
			for _, key := range slices.Sorted(maps.Keys(r.Fixed)) {
				for _, o := range in.Retrievals {
					if o != r && slices.Contains(o.Filters, key) {
						diags = append(diags, rules.Warning(rules.CheckFixedFilter, r.Range,
							fmt.Sprintf("Filter %q is fixed here and taken from the question by retrieve %q", key, o.Name),
							fmt.Sprintf("Intent %q: retrieve %q always uses %s = %q, while retrieve %q uses the question's %s; fix it in both, or in neither.",
								in.Name, r.Name, key, r.Fixed[key], o.Name, key)))
					}
				}
			}
		}
	}
	return diags
}
