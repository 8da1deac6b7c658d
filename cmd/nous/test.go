package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/ruletest"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/testcase"
	"github.com/spf13/cobra"
)

// testFormats are the report formats of `nous test`.
var testFormats = []string{"text", "junit"}

// testCommand is `nous test`: run the test blocks of rule files against the
// rules.
func (a *app) testCommand() *cobra.Command {
	var format, run string
	cmd := &cobra.Command{
		Use:   "test [PATHS…]",
		Short: "Run the test blocks of HCL files against the rules",
		Long: `Run test blocks against the rules (--rules, else ./nous.hcl or ./.nous/,
else the embedded defaults). Each PATH is a .hcl file or a directory of them;
without PATHS the test blocks inside the rules themselves run.

A test gives an input (query, intents, entities, mode) and what the plan must
contain (hypotheses, edges, plans, queries, diagnostics, mode, ambiguities); a failure shows
each differing field as expected versus got. Exit 1 when a test fails, 2 on
unreadable files.`,
		Example: `  nous test examples/tests
  nous --rules my-rules test my-rules/tests.hcl --format junit > report.xml`,
		RunE: func(cmd *cobra.Command, paths []string) error {
			if !slices.Contains(testFormats, format) {
				return usageError("test: --format %q: want text or junit", format)
			}
			var filter *regexp.Regexp
			if run != "" {
				re, err := regexp.Compile(run)
				if err != nil {
					return usageError("test: --run: %v", err)
				}
				filter = re
			}
			rs, err := a.loadRules()
			if err != nil {
				return err
			}
			tests := rs.Tests
			if len(paths) > 0 {
				if tests, err = a.loadTests(paths); err != nil {
					return err
				}
			}
			if len(tests) == 0 && len(paths) == 0 {
				return usageError("test: the rules have no test blocks; give the files that do as PATHS")
			}
			if len(tests) == 0 {
				return usageError("test: no test blocks in %v", paths)
			}
			a.warnUnknownIntents(rs, tests)
			results := ruletest.NewRunner(engine.NewPlanner(rs), filter).Run(cmd.Context(), tests)
			if len(results) == 0 {
				return usageError("test: --run %q matches no test", run)
			}
			// "got" values quote the plan, which may hold env() secrets.
			var out bytes.Buffer
			if format == "junit" {
				err = ruletest.WriteJUnit(&out, results)
			} else {
				err = ruletest.WriteText(&out, results)
			}
			if err == nil {
				_, err = a.stdout.Write(a.redactor(rs).Bytes(out.Bytes()))
			}
			if err != nil {
				return fmt.Errorf("test: writing the report: %w", err)
			}
			if ruletest.Summarize(results).Failed > 0 {
				return findings()
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", "report format: text or junit")
	cmd.Flags().StringVar(&run, "run", "", "run only the tests whose names match this regular expression")
	return cmd
}

// loadTests reads the test blocks of every path, in order. Files that do not
// load are reported with their positions and exit 2.
func (a *app) loadTests(paths []string) ([]*testcase.Case, error) {
	var tests []*testcase.Case
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return nil, usageError("test: %v", err)
		}
		rs, diags := rules.Load(p, rules.WithLookupEnv(a.lookupEnv))
		if diags.HasErrors() {
			a.printDiagnostics(diags, rs.Files())
			return nil, &exitError{Code: exitUsage}
		}
		tests = append(tests, rs.Tests...)
	}
	return tests, nil
}

// warnUnknownIntents names the test inputs whose intent type is not
// defined but is one or two edits from one that is: the planner gives
// unknown types the fallback template, so a typo ("query_commit") would
// quietly test the fallback. Types far from every intent are taken as a
// deliberate fallback test.
func (a *app) warnUnknownIntents(rs *rules.Ruleset, tests []*testcase.Case) {
	for _, t := range tests {
		for _, in := range t.Input.Intents {
			if rs.Intent(in.Type) != nil {
				continue
			}
			for _, def := range rs.Intents {
				if editDistance(in.Type, def.Name) <= 2 {
					fmt.Fprintf(a.stderr, "nous: warning: %s:%d: test %q: intent type %q is not defined in the rules (did you mean %q?); the %q template plans it\n",
						t.Range.Filename, t.Range.Start.Line, t.Name, in.Type, def.Name, rs.Settings.Fallback)
					break
				}
			}
		}
	}
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
