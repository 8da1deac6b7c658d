package lint

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/cond"
)

// conditionSite is one condition attribute and what its value means.
type conditionSite struct {
	cond *cond.Condition
	attr string
	what string // the definition it guards, for messages
	// gate is true for conditions that decide whether a definition takes
	// effect at all: always false makes the definition unreachable.
	gate bool
}

func conditionSites(rs *rules.Ruleset) []conditionSite {
	var sites []conditionSite
	for _, in := range rs.Intents {
		if in.Detect != nil {
			sites = append(sites, conditionSite{in.Detect.When, "when", fmt.Sprintf("the detect rule of intent %q", in.Name), true})
		}
		for _, r := range in.Retrievals {
			sites = append(sites, conditionSite{r.When, "when", fmt.Sprintf("retrieve %q of intent %q", r.Name, in.Name), true})
		}
	}
	for _, d := range rs.Dependencies {
		sites = append(sites, conditionSite{d.When, "when", fmt.Sprintf("dependency %q", d.Name), true})
	}
	for _, m := range rs.Modes {
		sites = append(sites,
			conditionSite{m.When, "when", fmt.Sprintf("the query selection of mode %q", m.Name), true},
			conditionSite{m.Keep, "keep", fmt.Sprintf("mode %q", m.Name), false},
			conditionSite{m.Warn, "warn", fmt.Sprintf("mode %q", m.Name), false})
	}
	for _, c := range rs.Checks {
		sites = append(sites,
			conditionSite{c.Applies, "applies", fmt.Sprintf("check %q", c.Name), true},
			conditionSite{c.Assert, "assert", fmt.Sprintf("check %q", c.Name), false})
	}
	return sites
}

// unreachable reports definitions that can never take effect: those gated
// by an always-false condition, and detect rules whose confidence is below
// min_confidence (the intent they detect is always skipped).
func unreachable(rs *rules.Ruleset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, s := range conditionSites(rs) {
		if s.gate && s.cond != nil && s.cond.Constant != nil && !*s.cond.Constant {
			diags = append(diags, rules.Warning(rules.CheckUnreachable, s.cond.Range,
				fmt.Sprintf("Unreachable: %s never applies", s.what),
				fmt.Sprintf("Its %s condition %q is always false.", s.attr, s.cond.Source)))
		}
	}
	for _, in := range rs.Intents {
		if in.Detect != nil && in.Detect.Confidence < rs.Settings.MinConfidence {
			diags = append(diags, rules.Warning(rules.CheckUnreachable, in.Detect.Range,
				fmt.Sprintf("Unreachable: intent %q is never detected", in.Name),
				fmt.Sprintf("Its detect confidence %g is below min_confidence %g, so the detected intent is always skipped.",
					in.Detect.Confidence, rs.Settings.MinConfidence)))
		}
	}
	return diags
}

// constants reports conditions that are always true, and always-false
// conditions that do not make anything unreachable (keep, warn, assert).
func constants(rs *rules.Ruleset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, s := range conditionSites(rs) {
		if s.cond == nil || s.cond.Constant == nil || (s.gate && !*s.cond.Constant) {
			continue
		}
		meaning := "is redundant: leave the attribute out"
		if s.attr == "assert" {
			meaning = "makes the check always pass"
		}
		if !*s.cond.Constant {
			meaning = map[string]string{
				"keep":   "drops every record",
				"warn":   "never flags a record: leave the attribute out",
				"assert": "makes the check always fail",
			}[s.attr]
		}
		diags = append(diags, rules.Warning(rules.CheckConstantCondition, s.cond.Range,
			fmt.Sprintf("Condition is always %t", *s.cond.Constant),
			fmt.Sprintf("The %s condition of %s %s.", s.attr, s.what, meaning)))
	}
	return diags
}
