package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

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
	if v := rs.Validator; v != nil {
		diags = append(diags, a.servesRole(ctx, m, rs.Agent(v.Agent), sdk.RoleValidator, v.Range)...)
	}
	return diags
}

// servesRole reports an agent whose plugin does not play role (its
// description does not list it): every call of that role would fail.
func (a *app) servesRole(ctx context.Context, m *plugin.Manager, ag *rules.Agent, role string, at hcl.Range) hcl.Diagnostics {
	if ag == nil {
		return nil // an unknown agent is reported by the rules themselves
	}
	sp, err := blockSpec(plugin.KindAgent, ag.Name, ag.Plugin, ag.SHA256, ag.Config, ag.Range)
	if err != nil {
		return nil // reported with the block's other plugin problems
	}
	info := m.InspectSpec(ctx, sp)
	if info.Agent == nil || slices.Contains(info.Agent.Roles, role) {
		return nil // one that does not start is reported by check
	}
	return hcl.Diagnostics{rules.Error(rules.CheckPluginConfig, at, fmt.Sprintf("agent %q does not serve the %s role", ag.Name, role),
		fmt.Sprintf("Its plugin %s plays %s.", ag.Plugin, strings.Join(info.Agent.Roles, ", ")))}
}
