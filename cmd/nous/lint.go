package main

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/lint"
	"github.com/nous-dev/nous/rules/report"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/spf13/cobra"
)

func (a *app) lintCommand() *cobra.Command {
	var (
		format  string
		strict  bool
		plugins bool
	)
	cmd := &cobra.Command{
		Use:   "lint [PATHS...]",
		Short: "Check rule files and report every finding with file:line:col",
		Long: `Lint loads each rules file or directory and reports every problem: parse,
type and expression errors, unknown references, duplicates, cycles,
thresholds out of range, unused and unreachable definitions, missing
descriptions, constant conditions and regex escapes lost to expr's string
unescaping. With --plugins, lint also starts the plugin of every source and
agent block and reports what its Configure says about the block's config.

A directory is linted as one ruleset per folder that holds .hcl or
.hcl.json files, recursively. Without PATHS, lint checks the rules the
other commands use (--rules, ./nous.hcl, ./.nous, else the embedded
defaults).

Exit status: 0 clean (warnings allowed unless --strict), 1 findings,
2 usage error or unreadable path.`,
		RunE: func(cmd *cobra.Command, paths []string) error {
			if !slices.Contains(report.Formats, format) {
				return usageError("--format must be one of %s, got %q", strings.Join(report.Formats, ", "), format)
			}
			in, err := a.lintPaths(cmd.Context(), paths, plugins)
			if err != nil {
				return err
			}
			if err := report.Write(a.stdout, format, in); err != nil {
				return fmt.Errorf("writing the report: %w", err)
			}
			errs, warns := report.Count(in.Diagnostics)
			if errs > 0 || (strict && warns > 0) {
				return findings()
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: "+strings.Join(report.Formats, "|"))
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 1 on warnings too")
	cmd.Flags().BoolVar(&plugins, "plugins", false, "also start each source and agent plugin and check its config")
	return cmd
}

// lintPaths loads and lints every ruleset named by paths; with plugins, a
// ruleset that loads without errors also has its plugins check their config.
func (a *app) lintPaths(ctx context.Context, paths []string, plugins bool) (report.Input, error) {
	in := report.Input{Files: map[string]*hcl.File{}}
	var secrets []string
	add := func(rs *rules.Ruleset, diags hcl.Diagnostics) {
		secrets = append(secrets, a.secrets(rs)...)
		in.Diagnostics = append(in.Diagnostics, lint.Run(rs, diags)...)
		if plugins && !diags.HasErrors() {
			in.Diagnostics = append(in.Diagnostics, lint.Suppress(a.pluginDiagnostics(ctx, rs), rs.Files())...)
		}
		for name, f := range rs.Files() {
			in.Files[name] = f
		}
	}
	opts := []rules.Option{rules.WithLookupEnv(a.lookupEnv)}
	if len(paths) == 0 {
		loc, err := a.rulesLocation()
		if err != nil {
			return in, err
		}
		if loc != "" {
			paths = []string{loc}
		} else {
			add(rules.LoadFS(examples.DefaultRules(), opts...))
		}
	}
	for _, p := range paths {
		sets, err := rulesets(p)
		if err != nil {
			return in, err
		}
		for _, set := range sets {
			add(rules.Load(set, opts...))
		}
	}
	rules.SortDiagnostics(in.Diagnostics)
	in.Redactor = redact.New(secrets...)
	return in, nil
}

// rulesets returns what to load for a path: the file itself, or every
// directory under it that holds rule files.
func rulesets(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, usageError("%v", err)
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	dirs := map[string]bool{}
	err = filepath.WalkDir(p, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && e.Name() == ".git" {
			return filepath.SkipDir
		}
		if !e.IsDir() && (strings.HasSuffix(path, ".hcl") || strings.HasSuffix(path, ".hcl.json")) {
			dirs[filepath.Dir(path)] = true
		}
		return nil
	})
	if err != nil {
		return nil, usageError("%v", err)
	}
	if len(dirs) == 0 {
		return nil, usageError("%s: no .hcl or .hcl.json rule files", p)
	}
	return slices.Sorted(maps.Keys(dirs)), nil
}
