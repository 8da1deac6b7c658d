package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/render"
	"github.com/spf13/cobra"
)

// planCommand is `nous plan`: plan a question or a request file and print the
// plan without running it.
func (a *app) planCommand() *cobra.Command {
	var query, input, format, mode string
	cmd := &cobra.Command{
		Use:   "plan [QUESTION]",
		Short: "Show the plan for a question or a request file, without running it",
		Long: `Plan a question (--query or a positional argument) or a request file
(--input FILE.json, - for stdin) with the rules and print the plan: intents,
hypotheses and their dependencies, retrieval plans and queries, the plan
validation (retrievals on sources that are not configured, steps with
nothing to run, budgets beyond the loop's TTL), diagnostics.

A request file is {"query": "…", "intents": [{"type": "…", "confidence": 0.9}],
"entities": {"projects": ["…"]}, "mode": "…"}; every field is optional.
Exit 1 when the plan has error diagnostics, 2 on bad input.`,
		Example: `  nous plan "what changed in payments last week?"
  nous plan --input examples/inputs/commits.json --format text
  echo '{"intents":[{"type":"query_status","confidence":0.8}]}' | nous plan --input - --format mermaid`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if query != "" {
					return usageError("plan: give the question either as an argument or with --query, not both")
				}
				query = args[0]
			}
			if !slices.Contains(render.Formats, format) {
				return usageError("plan: --format %q: want one of %s", format, strings.Join(render.Formats, ", "))
			}
			req, source, err := a.planRequest(query, input)
			if err != nil {
				return err
			}
			if mode != "" {
				req.Mode, source = mode, "--mode"
			}
			rs, err := a.loadRules()
			if err != nil {
				return err
			}
			planner := engine.NewPlanner(rs)
			if err := planner.CheckMode(req.Mode); err != nil {
				return usageError("%s: %v", source, err)
			}
			plan, err := planner.Plan(cmd.Context(), req)
			if err != nil {
				return usageError("%s: %v", source, err)
			}
			// No plugin runs here: the sources are checked as the rules
			// configure them (`nous ask` also asks the plugins their kinds).
			engine.ValidatePlan(plan, engine.SourceFactsFromRules(rs))
			// A description may quote env("GITLAB_TOKEN"): the plan is
			// masked before it is rendered, and rendered whole before it is
			// written, so a rendering error prints nothing.
			var out bytes.Buffer
			if err := render.Write(&out, plan, format, a.redactor(rs)); err != nil {
				return fmt.Errorf("plan: rendering: %w", err)
			}
			if _, err := a.stdout.Write(out.Bytes()); err != nil {
				return fmt.Errorf("plan: writing output: %w", err)
			}
			if len(plan.Errors()) > 0 {
				return findings()
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&query, "query", "q", "", "the question to plan")
	f.StringVarP(&input, "input", "i", "", "request JSON file to plan, - for stdin")
	f.StringVarP(&format, "format", "f", "json", "output format: "+strings.Join(render.Formats, ", "))
	f.StringVar(&mode, "mode", "", "tier mode (overrides the request's and the mode rules')")
	return cmd
}

// planRequest builds the request from --query or --input and names where it
// came from for error messages.
func (a *app) planRequest(query, input string) (engine.Request, string, error) {
	switch {
	case query != "" && input != "":
		return engine.Request{}, "", usageError("plan: give either a question or --input, not both")
	case query != "":
		return engine.Request{Query: query}, "--query", nil
	case input == "":
		return engine.Request{}, "", usageError("plan: give a question (--query or an argument) or --input FILE.json")
	}
	var r io.Reader = a.stdin
	name := "<stdin>"
	if input != "-" {
		f, err := os.Open(input)
		if err != nil {
			return engine.Request{}, "", usageError("plan: %v", err)
		}
		defer f.Close()
		r, name = f, input
	}
	req, err := engine.DecodeRequest(r)
	var inputErr *engine.InputError
	switch {
	case errors.As(err, &inputErr):
		return engine.Request{}, "", usageError("%s:%v", name, err)
	case err != nil:
		return engine.Request{}, "", usageError("plan: %v", err)
	}
	return req, name, nil
}
