// Package lint checks a loaded ruleset for mistakes that load but are
// almost certainly wrong: cycles, unused and unreachable definitions,
// missing descriptions, constant conditions, regex escapes lost to
// expr's string unescaping, refinements that change the question,
// filters an intent both fixes and takes from the question and depth
// levels that do not mean what they say. Every finding is an
// hcl.Diagnostic carrying a check name (rules.CheckName).
package lint

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// Run returns every finding for a ruleset: the diagnostics Load reported
// plus the lint checks, without those suppressed by nous-lint-ignore
// comments, sorted by file and position.
func Run(rs *rules.Ruleset, loadDiags hcl.Diagnostics) hcl.Diagnostics {
	diags := append(hcl.Diagnostics{}, loadDiags...)
	diags = append(diags, Check(rs)...)
	if rs != nil {
		diags = Suppress(diags, rs.Files())
	}
	rules.SortDiagnostics(diags)
	return diags
}

// Check runs the lint checks on a ruleset. It works on a partially loaded
// ruleset too, checking what decoded.
func Check(rs *rules.Ruleset) hcl.Diagnostics {
	if rs == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, check := range []func(*rules.Ruleset) hcl.Diagnostics{
		cycles, unused, unreachable, descriptions, constants, actions, regexEscapes, refinements, fixedFilters, depthLevels,
	} {
		diags = append(diags, check(rs)...)
	}
	return diags
}
