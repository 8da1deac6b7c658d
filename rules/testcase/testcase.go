// Package testcase holds the test blocks of rule files: a plan request
// and the parts of the plan it must produce. rules decodes them with the
// rest of a file; engine/ruletest runs them.
package testcase

import "github.com/hashicorp/hcl/v2"

// Case is a test block: an input and what the plan must contain.
type Case struct {
	Name  string
	Input Input
	// Expect holds the expectations; nil fields are not checked.
	Expect Expect
	Range  hcl.Range
}

// Input is the plan request of a test case.
type Input struct {
	Query    string
	Intents  []Intent
	Entities map[string][]string
	Mode     string
	Depth    string // the name of the depth level chosen for the task profile
}

// Intent is an explicitly given intent.
type Intent struct {
	Type       string
	Confidence float64
}

// Expect lists expected plan parts.
type Expect struct {
	Hypotheses  []Hypothesis        // id, description, dependencies, action
	Edges       map[string][]string // from → [to]
	Plans       []Plan
	Queries     []string // query strings, in plan order
	Diagnostics []string // substrings of expected diagnostic summaries
	Mode        string
	Depth       string // the name of the depth level chosen for the task profile
	// Ambiguities are the plan's ambiguities in order, each its type and,
	// when it has one, ":" and its entity ("missing_entity:targets").
	Ambiguities []string
	Range       hcl.Range
}

// Hypothesis is an expected hypothesis.
type Hypothesis struct {
	ID           string
	Description  string
	Dependencies []string
	Action       string // what the step does, its template's defaults applied; "" is not checked
}

// Plan is an expected retrieval plan.
type Plan struct {
	ID          string
	Description string
	Sources     []string
	Priority    int
}
