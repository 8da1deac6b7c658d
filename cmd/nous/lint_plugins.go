package main

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
)

// pluginDiagnostics starts the plugin of every source and agent block of rs,
// has it check its config, and returns what it said as diagnostics on the
// block: the plugin-config check of `nous lint --plugins`.
func (a *app) pluginDiagnostics(ctx context.Context, rs *rules.Ruleset) hcl.Diagnostics {
	m, err := a.newManager(rs, a.redactor(rs))
	if err != nil {
		// A spec that cannot be built names its block itself.
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: err.Error(), Extra: rules.Finding{Check: rules.CheckPluginConfig}}}
	}
	defer m.Close()
	var diags hcl.Diagnostics
	check := func(kind plugin.Kind, block, name string, at hcl.Range) {
		found, err := m.CheckConfig(ctx, kind, name)
		if err != nil {
			diags = append(diags, rules.Error(rules.CheckPluginConfig, at,
				fmt.Sprintf("%s %q: the plugin did not start", block, name), err.Error()))
			return
		}
		for _, d := range found {
			summary := fmt.Sprintf("%s %q: %s", block, name, plugin.ConfigSummary(d))
			mk := rules.Warning
			if d.Severity == sdk.SeverityError {
				mk = rules.Error
			}
			diags = append(diags, mk(rules.CheckPluginConfig, at, summary, d.Detail))
		}
	}
	for _, s := range rs.Sources {
		if !s.Configured() {
			continue // nothing to start; its setup says how to configure it
		}
		check(plugin.KindSource, "source", s.Name, s.Range)
	}
	for _, ag := range rs.Agents {
		check(plugin.KindAgent, "agent", ag.Name, ag.Range)
	}
	return diags
}
