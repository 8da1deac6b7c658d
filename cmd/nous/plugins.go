package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/plugins"
	"github.com/spf13/cobra"
)

// inspectWorkers bounds how many plugins `nous plugins` starts at once.
const inspectWorkers = 4

// pluginListing is one row of `nous plugins`.
type pluginListing struct {
	plugin.Info
	UsedBy []string `json:"used_by,omitempty"` // "source gitlab", "agent writer"
}

// pluginsReport is the JSON shape of `nous plugins --format json`.
type pluginsReport struct {
	SearchPath []string        `json:"search_path"`
	Plugins    []pluginListing `json:"plugins"`
}

func (a *app) pluginsCommand() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "List built-in and installed plugins with their versions, capabilities and checksum state",
		Long: `List the built-in plugins, the nous-plugin-NAME binaries found in the plugin
directories (--plugin-dir, $NOUS_PLUGIN_DIR, ./.nous/plugins, ~/.nous/plugins),
and every plugin the rules name. Each is started once and asked what it serves.
A plugin pinned by sha256 in the rules is checked before it runs, and what
runs is the copy that was checked. The project's own binaries (./.nous/plugins,
paths in its rules) are listed but run only once trusted (nous plugins trust).
Exits 1 when a plugin cannot be used.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "text" && format != "json" {
				return usageError("--format: want text or json, got %q", format)
			}
			report, err := a.listPlugins(cmd.Context())
			if err != nil {
				return err
			}
			if format == "json" {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(report); err != nil {
					return err
				}
			} else if err := writePluginsText(terminalSafe{a.stdout}, report); err != nil {
				return err
			}
			for _, p := range report.Plugins {
				if p.Error != "" {
					return findings()
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.AddCommand(a.pluginsTrustCommand())
	return cmd
}

// pluginsTrustCommand is `nous plugins trust [PATH...]`.
func (a *app) pluginsTrustCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "trust [PATH...]",
		Short: "Allow this project's plugin binaries to run (recorded with their sha256 in your config directory)",
		Long: `Plugin binaries that come with a project (in ./.nous/plugins, or named by
path in the project's own rules) never run until you trust them: opening a
cloned repository must not run its code. trust records, for this directory,
each binary's path and sha256 in trusted-plugins.json in your config
directory; a binary that changes is refused until you trust it again.
PATH is a plugin directory (its nous-plugin-* binaries) or a binary; none
means every binary this project would run. In CI, set
NOUS_TRUST_PROJECT_PLUGINS=1 instead.`,
		RunE: func(cmd *cobra.Command, paths []string) error {
			rs, err := a.loadRules()
			if err != nil {
				return err
			}
			specs, err := pluginSpecs(rs)
			if err != nil {
				return err
			}
			m, err := plugin.NewManager(a.pluginOptions(a.redactor(rs)))
			if err != nil {
				return err
			}
			defer m.Close()
			trusted, err := m.Trust(paths, specs)
			if err != nil {
				return &exitError{Code: exitUsage, Err: err}
			}
			out := terminalSafe{a.stdout}
			for _, t := range trusted {
				fmt.Fprintf(out, "trusted %s  %s\n", t.SHA256, t.Path)
			}
			return nil
		},
	}
}

// listPlugins gathers the plugins to list and inspects each one.
func (a *app) listPlugins(ctx context.Context) (pluginsReport, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	// Ctrl-C stops the plugins being inspected, through the deferred Close.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	rs, err := a.loadRules()
	if err != nil {
		return pluginsReport{}, err
	}
	m, err := plugin.NewManager(a.pluginOptions(a.redactor(rs)))
	if err != nil {
		return pluginsReport{}, err
	}
	defer m.Close()

	// One row per (reference, pin): built-ins, discovered binaries, and
	// whatever else the rules name (paths), each with who uses it.
	type candidate struct {
		ref, pin string
		usedBy   []string
	}
	var cands []*candidate
	byKey := map[[2]string]*candidate{}
	add := func(ref, pin string) *candidate {
		k := [2]string{ref, pin}
		if c := byKey[k]; c != nil {
			return c
		}
		c := &candidate{ref: ref, pin: pin}
		byKey[k] = c
		cands = append(cands, c)
		return c
	}
	specs, err := pluginSpecs(rs)
	if err != nil {
		return pluginsReport{}, err
	}
	pinned := map[string]bool{} // refs the rules pin: listed with their pin only
	for _, s := range specs {
		if s.SHA256 != "" {
			pinned[s.Ref] = true
		}
	}
	fromRules := map[[2]string]plugin.Spec{}
	for _, s := range specs {
		fromRules[[2]string{s.Ref, s.SHA256}] = s
	}
	for _, name := range plugins.Names() {
		if !pinned["builtin:"+name] {
			add("builtin:"+name, "")
		}
	}
	for _, f := range m.Discover() {
		if !pinned[f.Name] {
			add(f.Name, "")
		}
	}
	for _, s := range specs {
		if s.Ref == "" {
			continue // a source that is not configured uses no plugin
		}
		c := add(s.Ref, s.SHA256)
		c.usedBy = append(c.usedBy, s.Kind.String()+" "+s.Name)
	}

	report := pluginsReport{SearchPath: m.SearchPath(), Plugins: make([]pluginListing, len(cands))}
	var wg sync.WaitGroup
	sem := make(chan struct{}, inspectWorkers)
	for i, c := range cands {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			spec := fromRules[[2]string{c.ref, c.pin}]
			spec.Ref, spec.SHA256 = c.ref, c.pin
			report.Plugins[i] = pluginListing{Info: m.InspectSpec(ctx, spec), UsedBy: c.usedBy}
		})
	}
	wg.Wait()
	slices.SortStableFunc(report.Plugins, func(x, y pluginListing) int {
		return cmp.Or(cmp.Compare(x.Name, y.Name), cmp.Compare(x.Ref, y.Ref))
	})
	return report, nil
}

// writePluginsText renders the listing as an aligned table, then any
// problems in full. A plugin's self-description and the stderr its errors
// quote are untrusted text, so the caller passes a terminalSafe w.
func writePluginsText(w io.Writer, report pluginsReport) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tREF\tVERSION\tSERVES\tCHECKSUM\tUSED BY\tPATH")
	for _, p := range report.Plugins {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			p.Name, p.Ref, dash(p.Version()), dash(serves(p.Info)), p.Checksum, dash(strings.Join(p.UsedBy, ", ")), dash(p.Path))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, p := range report.Plugins {
		if p.Error != "" {
			fmt.Fprintf(w, "\n%s (%s): %s\n", p.Name, p.Ref, p.Error)
		}
	}
	fmt.Fprintf(w, "\nsearched for nous-plugin-NAME in: %s\n", strings.Join(report.SearchPath, ", "))
	return nil
}

// serves summarizes what a plugin offers: "source (commit, issue)",
// "agent (analyst, writer)".
func serves(info plugin.Info) string {
	var parts []string
	if info.Source != nil {
		parts = append(parts, "source ("+strings.Join(info.Source.Kinds, ", ")+")")
	}
	if info.Agent != nil {
		parts = append(parts, "agent ("+strings.Join(info.Agent.Roles, ", ")+")")
	}
	return strings.Join(parts, "; ")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
