package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/lint"
	"github.com/nous-dev/nous/sdk/redact"
)

// lintedRules loads the rules where loadRules finds them and lints them:
// serve swaps in only rules that lint without errors, from the first load
// on. path is where they were found, "" for the embedded defaults.
func (a *app) lintedRules() (rs *rules.Ruleset, diags hcl.Diagnostics, path string, err error) {
	if rs, diags, path, err = a.readRules(); err != nil {
		return nil, nil, "", err
	}
	return rs, lint.Run(rs, diags), path, nil
}

// snapshot loads and lints the rules, printing what lint finds, and builds
// the snapshot served first. The snapshot's Watch says where the rules
// are, and the reloader follows it from reload to reload.
func (a *app) snapshot(ctx context.Context, shared *plugin.Processes) (*server.Snapshot, error) {
	rs, diags, path, err := a.lintedRules()
	if err != nil {
		return nil, err
	}
	if len(diags) > 0 {
		a.printDiagnostics(diags, rs.Files())
	}
	if diags.HasErrors() {
		return nil, &exitError{Code: exitUsage}
	}
	snap, problems, err := a.rulesSnapshot(ctx, rs, path, a.redactor(rs), shared)
	if err != nil {
		return nil, err
	}
	// The server serves anyway (other questions work), but the questions
	// on those sources would fail: warn.
	var warnings hcl.Diagnostics
	for _, d := range problems {
		w := *d
		w.Severity = hcl.DiagWarning
		warnings = append(warnings, &w)
	}
	if len(warnings) > 0 {
		a.printDiagnostics(warnings, rs.Files())
	}
	return snap, nil
}

// rulesSnapshot is the snapshot of rs, loaded from path ("" for the
// embedded defaults, which are not watched), served masked with red: its
// plugin manager reuses the processes in shared that serve an unchanged
// spec and starts the others in the background, so the first run finds
// them warm. Its Release closes the manager, which stops the processes no
// other snapshot uses. Each plugin checks its config, as `nous lint
// --plugins` has it do: problems are what they found, also in the
// snapshot's Sources and Agents.
func (a *app) rulesSnapshot(ctx context.Context, rs *rules.Ruleset, path string, red *redact.Redactor,
	shared *plugin.Processes) (snap *server.Snapshot, problems hcl.Diagnostics, err error) {
	specs, err := pluginSpecs(rs)
	if err != nil {
		return nil, nil, err
	}
	opts := a.pluginOptions(red)
	opts.Shared = shared
	m, err := plugin.NewManager(opts, specs...)
	if err != nil {
		return nil, nil, err
	}
	m.Prestart(ctx, configuredSources(rs), agentNames(rs))
	snap = server.NewSnapshot(rs, m, red, func() { _ = m.Close() })
	if path != "" {
		snap.Watch = []string{path}
	}
	for _, c := range a.checkPlugins(ctx, m, rs) {
		st := server.PluginStatus{Name: c.name, Plugin: c.plugin, Diagnostics: server.DiagnosticsOf(c.diags, red)}
		if c.kind == plugin.KindSource {
			snap.Sources = append(snap.Sources, st)
		} else {
			snap.Agents = append(snap.Agents, st)
		}
		problems = append(problems, c.diags...)
	}
	return snap, problems, nil
}

// rulesLoader is the server's Loader: the rules linted and, when they have
// no errors, their snapshot, which watches where they were found.
func (a *app) rulesLoader(shared *plugin.Processes) server.Loader {
	return func(ctx context.Context) (*server.Snapshot, []server.Diagnostic) {
		rs, diags, path, err := a.lintedRules()
		if err != nil {
			return nil, []server.Diagnostic{{Severity: "error", Summary: err.Error()}}
		}
		red := a.redactor(rs)
		out := server.DiagnosticsOf(diags, red)
		if diags.HasErrors() {
			return nil, out
		}
		snap, _, err := a.rulesSnapshot(ctx, rs, path, red, shared) // the reload logs the plugins' problems
		if err != nil {
			return nil, append(out, server.Diagnostic{Severity: "error", Summary: red.String(err.Error())})
		}
		return snap, out
	}
}

// reloadOnHangup reloads the rules on every SIGHUP until ctx ends. Once it
// has returned, SIGHUP no longer ends the process.
func reloadOnHangup(ctx context.Context, r *server.Reloader) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				r.Reload(ctx)
			}
		}
	}()
}
