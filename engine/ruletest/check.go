package ruletest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules/testcase"
)

// Check compares a plan with a test's expectations. Unset expectations (nil
// lists and maps, empty strings) are not checked. Within an expected
// hypothesis or plan, an empty description, nil sources or zero priority are
// not checked either. Any error diagnostic of the plan that no expected
// diagnostic matches is a failure, so a test cannot pass on a broken plan.
func Check(ex testcase.Expect, plan *engine.Plan) []Failure {
	c := checker{at: ex}
	if ex.Hypotheses != nil {
		c.hypotheses(ex.Hypotheses, plan)
	}
	if ex.Edges != nil {
		c.edges(ex.Edges, plan.Reasoning.DependencyMap)
	}
	if ex.Plans != nil {
		c.plans(ex.Plans, plan.Retrieval.Plans)
	}
	if ex.Queries != nil {
		got := make([]string, len(plan.Retrieval.Queries))
		for i, q := range plan.Retrieval.Queries {
			got[i] = q.QueryString
		}
		c.list("queries", ex.Queries, got)
	}
	if ex.Ambiguities != nil {
		got := make([]string, len(plan.Ambiguities))
		for i, a := range plan.Ambiguities {
			got[i] = a.Type
			if a.Entity != "" {
				got[i] += ":" + a.Entity
			}
		}
		c.list("ambiguities", ex.Ambiguities, got)
	}
	c.diagnostics(ex.Diagnostics, plan.Diagnostics)
	if ex.Mode != "" && ex.Mode != plan.Mode {
		c.fail("mode", quote(ex.Mode), quote(plan.Mode))
	}
	if ex.Depth != "" {
		got := "no depth (the rules define no depth levels)"
		if plan.Profile != nil {
			got = fmt.Sprintf("%q (level %d, %s)", plan.Profile.Depth.Name, plan.Profile.Depth.Level, plan.Profile.Reason)
		}
		if plan.Profile == nil || plan.Profile.Depth.Name != ex.Depth {
			c.fail("depth", quote(ex.Depth), got)
		}
	}
	return c.failures
}

type checker struct {
	at       testcase.Expect
	failures []Failure
}

func (c *checker) fail(field, expected, got string) {
	c.failures = append(c.failures, Failure{Field: field, Expected: expected, Got: got, Range: c.at.Range})
}

func (c *checker) hypotheses(want []testcase.Hypothesis, plan *engine.Plan) {
	got := plan.Reasoning.Hypotheses
	if len(want) != len(got) {
		ids := make([]string, len(got))
		for i, h := range got {
			ids[i] = h.ID
		}
		c.wrongLength("hypotheses", "hypothesis", "hypotheses", len(want), ids)
	}
	for i := range min(len(want), len(got)) {
		w, g := want[i], got[i]
		field := fmt.Sprintf("hypotheses[%d]", i)
		c.identity(field, w.ID, g.ID, w.Description, g.Description)
		if w.Dependencies != nil && !slices.Equal(w.Dependencies, g.Dependencies) {
			c.fail(field+".dependencies", list(w.Dependencies), list(g.Dependencies))
		}
		if a := stepAction(plan, i); w.Action != "" && w.Action != a {
			c.fail(field+".action", quote(w.Action), quote(a))
		}
	}
}

// stepAction is what step i does, its template's defaults applied (a step
// that runs retrieval plans retrieves): the action the run executes.
func stepAction(plan *engine.Plan, i int) string {
	if i < len(plan.Steps) {
		return string(plan.Steps[i].Action)
	}
	return string(plan.Reasoning.Hypotheses[i].Action)
}

// edges compares from → [to] lists, reporting each differing node in the
// plan's node order, then nodes the plan does not have.
func (c *checker) edges(want map[string][]string, got engine.DependencyMap) {
	seen := map[string]bool{}
	for _, n := range got.Nodes {
		seen[n] = true
		if w, g := want[n], got.Edges[n]; !slices.Equal(w, g) {
			c.fail("edges."+n, list(w), list(g))
		}
	}
	var unknown []string
	for n := range want {
		if !seen[n] && len(want[n]) > 0 {
			unknown = append(unknown, n)
		}
	}
	slices.Sort(unknown)
	for _, n := range unknown {
		c.fail("edges."+n, list(want[n]), "no node "+n)
	}
}

func (c *checker) plans(want []testcase.Plan, got []engine.RetrievalPlan) {
	if len(want) != len(got) {
		descs := make([]string, len(got))
		for i, p := range got {
			descs[i] = p.ID + " " + quote(p.Description)
		}
		c.wrongLength("plans", "plan", "plans", len(want), descs)
	}
	for i := range min(len(want), len(got)) {
		w, g := want[i], got[i]
		field := fmt.Sprintf("plans[%d]", i)
		c.identity(field, w.ID, g.ID, w.Description, g.Description)
		if w.Sources != nil && !slices.Equal(w.Sources, g.Sources) {
			c.fail(field+".sources", list(w.Sources), list(g.Sources))
		}
		if w.Priority != 0 && w.Priority != g.Priority {
			c.fail(field+".priority", strconv.Itoa(w.Priority), strconv.Itoa(g.Priority))
		}
	}
}

// wrongLength reports a list of the wrong length, with the items the plan has.
func (c *checker) wrongLength(field, one, many string, want int, got []string) {
	c.fail(field, count(want, one, many), count(len(got), one, many)+" "+list(got))
}

// identity compares the ID and, when expected, the description of a
// hypothesis or plan.
func (c *checker) identity(field, wantID, gotID, wantDesc, gotDesc string) {
	if wantID != gotID {
		c.fail(field+".id", quote(wantID), quote(gotID))
	}
	if wantDesc != "" && wantDesc != gotDesc {
		c.fail(field+".description", quote(wantDesc), quote(gotDesc))
	}
}

func (c *checker) list(field string, want, got []string) {
	if len(want) != len(got) {
		c.fail(field, count(len(want), "entry", "entries")+" "+quoteList(want), count(len(got), "entry", "entries")+" "+quoteList(got))
		return
	}
	for i := range want {
		if want[i] != got[i] {
			c.fail(fmt.Sprintf("%s[%d]", field, i), quote(want[i]), quote(got[i]))
		}
	}
}

// diagnostics checks that every expected substring appears in some
// diagnostic ("severity code: message"), and that every error diagnostic
// was expected.
func (c *checker) diagnostics(want []string, got []engine.Diagnostic) {
	lines := make([]string, len(got))
	for i, d := range got {
		lines[i] = fmt.Sprintf("%s %s: %s", d.Severity, d.Code, d.Message)
	}
	for _, w := range want {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, w) }) {
			c.fail("diagnostics", "a diagnostic containing "+quote(w), describeDiagnostics(lines))
		}
	}
	for i, d := range got {
		expected := slices.ContainsFunc(want, func(w string) bool { return strings.Contains(lines[i], w) })
		if d.Severity == engine.SeverityError && !expected {
			c.fail("diagnostics", "no unexpected error", lines[i])
		}
	}
}

func describeDiagnostics(lines []string) string {
	if len(lines) == 0 {
		return "no diagnostics"
	}
	return quoteList(lines)
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func quote(s string) string { return strconv.Quote(s) }

// list formats names as [a, b]; quoteList quotes each one.
func list(items []string) string { return "[" + strings.Join(items, ", ") + "]" }

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
