package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

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
	for _, c := range a.checkPlugins(ctx, m, rs) {
		diags = append(diags, c.diags...)
	}
	return diags
}

// pluginCheck is what the plugin of one source or agent block found wrong
// with its config.
type pluginCheck struct {
	kind         plugin.Kind
	name, plugin string
	diags        hcl.Diagnostics // on the block
}

// checkPlugins has m start the plugin of every configured source and
// every agent block of rs and check its config, in the words of
// pluginDiagnostics: for `nous lint --plugins`, and for `nous serve` on
// the manager of the rules it serves.
func (a *app) checkPlugins(ctx context.Context, m *plugin.Manager, rs *rules.Ruleset) []pluginCheck {
	check := func(kind plugin.Kind, block, name, plug string, at hcl.Range) pluginCheck {
		c := pluginCheck{kind: kind, name: name, plugin: plug}
		found, err := m.CheckConfig(ctx, kind, name)
		if err != nil {
			c.diags = hcl.Diagnostics{rules.Error(rules.CheckPluginConfig, at,
				fmt.Sprintf("%s %q: the plugin did not start", block, name), err.Error())}
			return c
		}
		for _, d := range found {
			summary := fmt.Sprintf("%s %q: %s", block, name, plugin.ConfigSummary(d))
			mk := rules.Warning
			if d.Severity == sdk.SeverityError {
				mk = rules.Error
			}
			c.diags = append(c.diags, mk(rules.CheckPluginConfig, at, summary, d.Detail))
		}
		return c
	}
	var checks []func() pluginCheck
	for _, s := range rs.Sources {
		if !s.Configured() {
			continue // nothing to start; its setup says how to configure it
		}
		checks = append(checks, func() pluginCheck { return check(plugin.KindSource, "source", s.Name, s.Plugin, s.Range) })
	}
	for _, ag := range rs.Agents {
		checks = append(checks, func() pluginCheck {
			c := check(plugin.KindAgent, "agent", ag.Name, ag.Plugin, ag.Range)
			if v := rs.Validator; v != nil && v.Agent == ag.Name {
				c.diags = append(c.diags, a.servesRole(ctx, m, ag, sdk.RoleValidator, v.Range)...)
			}
			return c
		})
	}
	// Each check starts a process: a few at once, in the blocks' order.
	out := make([]pluginCheck, len(checks))
	sem := make(chan struct{}, maxParallelChecks)
	var wg sync.WaitGroup
	for i, c := range checks {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			out[i] = c()
		})
	}
	wg.Wait()
	return out
}

// maxParallelChecks bounds the plugin processes checkPlugins starts at once.
const maxParallelChecks = 4

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
