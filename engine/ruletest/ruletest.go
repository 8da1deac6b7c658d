// Package ruletest runs the test blocks of rule files: each test plans its
// input with a compiled ruleset and compares the plan with its expectations,
// reporting every mismatch as expected versus got.
package ruletest

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules/testcase"
)

// Result is the outcome of one test block.
type Result struct {
	Name     string
	Range    hcl.Range // of the test block
	Failures []Failure
	Err      error // the plan could not be made (an invalid input)
	Duration time.Duration
}

// Passed reports whether every expectation held.
func (r Result) Passed() bool { return r.Err == nil && len(r.Failures) == 0 }

// Failure is one expectation that did not hold.
type Failure struct {
	Field    string // where in the plan: "hypotheses[1].dependencies", "edges.h0", "queries[0]", …
	Expected string
	Got      string
	Range    hcl.Range // of the expect block
}

// Runner runs tests against one planner.
type Runner struct {
	planner *engine.Planner
	filter  *regexp.Regexp
}

// NewRunner returns a runner planning with p. A non-nil filter runs only the
// tests whose names it matches.
func NewRunner(p *engine.Planner, filter *regexp.Regexp) *Runner {
	return &Runner{planner: p, filter: filter}
}

// Run runs the tests in order and returns one result per test run.
func (r *Runner) Run(ctx context.Context, tests []*testcase.Case) []Result {
	results := make([]Result, 0, len(tests))
	for _, t := range tests {
		if r.filter != nil && !r.filter.MatchString(t.Name) {
			continue
		}
		start := time.Now()
		res := Result{Name: t.Name, Range: t.Range}
		plan, err := r.planner.Plan(ctx, Request(t.Input))
		if err != nil {
			res.Err = fmt.Errorf("planning the input: %w", err)
		} else {
			res.Failures = Check(t.Expect, plan)
		}
		res.Duration = time.Since(start)
		results = append(results, res)
	}
	return results
}

// Request turns a test input into a plan request. Absent entities are
// extracted from the query, as for any request.
func Request(in testcase.Input) engine.Request {
	req := engine.Request{Query: in.Query, Entities: in.Entities, Mode: in.Mode}
	for _, i := range in.Intents {
		req.Intents = append(req.Intents, engine.Intent{Type: i.Type, Confidence: i.Confidence})
	}
	return req
}
