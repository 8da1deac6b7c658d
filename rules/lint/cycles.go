package lint

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/rules"
)

// cycles reports the dependency cycles inside intent templates, naming each
// listed edge with the position that creates it. Cycles are found by one
// depth-first search per intent over hypotheses in declaration order; each
// back edge closes one cycle, reported at that edge. At most
// graph.ReportLimits cycles are listed in all, each abbreviated to its
// node limit, and one more diagnostic counts the cycles left out, so the
// report stays small however many cycles a generated ruleset has.
func cycles(rs *rules.Ruleset) hcl.Diagnostics {
	lim := graph.ReportLimits()
	var (
		diags    hcl.Diagnostics
		unlisted int
		first    hcl.Range // where the first unlisted cycle closes
		intents  []string  // with unlisted cycles
	)
	for _, in := range rs.Intents {
		g, edges := intentGraph(in)
		listed, found := g.Cycles(graph.Limits{Cycles: lim.Cycles - len(diags), Nodes: lim.Nodes})
		for _, c := range listed {
			diags = append(diags, cycleDiagnostic(in, c, edges))
		}
		if found > len(listed) {
			if unlisted == 0 {
				back := g.BackEdges()
				first = edges[back[len(listed)]].Range
			}
			unlisted += found - len(listed)
			intents = append(intents, in.Name)
		}
	}
	if unlisted > 0 {
		names := intents[:min(len(intents), lim.Cycles)]
		more := ""
		if len(intents) > len(names) {
			more = fmt.Sprintf(" and %d more intents", len(intents)-len(names))
		}
		diags = append(diags, rules.Error(rules.CheckCycle, first,
			fmt.Sprintf("%d more dependency cycles not listed", unlisted),
			fmt.Sprintf("Lint lists at most %d cycles; the others are in intent %q%s. Fix the cycles listed and lint again.",
				lim.Cycles, strings.Join(names, `", "`), more)))
	}
	return diags
}

// intentGraph returns the template's dependency graph and, for each of its
// edges, the first rules edge that creates it.
func intentGraph(in *rules.Intent) (*graph.Graph, map[graph.Edge]rules.Edge) {
	g := graph.New(len(in.Hypotheses))
	edges := make(map[graph.Edge]rules.Edge, len(in.Edges))
	for _, e := range in.Edges {
		key := graph.Edge{From: e.From, To: e.To}
		if _, ok := edges[key]; !ok {
			edges[key] = e
			g.AddEdge(e.From, e.To)
		}
	}
	return g, edges
}

func cycleDiagnostic(in *rules.Intent, c graph.Cycle, edges map[graph.Edge]rules.Edge) *hcl.Diagnostic {
	name := func(i int) string { return in.Hypotheses[i].Name }
	var detail strings.Builder
	detail.WriteString("Each edge of the cycle:")
	for i := 0; i+1 < len(c.Nodes); i++ {
		if i+1 == c.Cut && c.Omitted() > 0 {
			fmt.Fprintf(&detail, "\n  … %d more edges", c.Omitted()+1)
			continue
		}
		e := edges[graph.Edge{From: c.Nodes[i], To: c.Nodes[i+1]}]
		fmt.Fprintf(&detail, "\n  %s → %s at %s (%s)", name(e.From), name(e.To), e.Range, edgeOrigin(in, e))
	}
	detail.WriteString("\nThe planner would break it by dropping the closing edge; remove a depends_on or change the pattern.")
	closing := edges[c.Closing()]
	return rules.Error(rules.CheckCycle, closing.Range,
		fmt.Sprintf("Dependency cycle in intent %q: %s", in.Name, c.Format(name)), detail.String())
}

// edgeOrigin says whether an edge comes from depends_on or the pattern.
func edgeOrigin(in *rules.Intent, e rules.Edge) string {
	h := in.Hypotheses[e.To]
	for _, name := range h.DependsOn {
		if name == in.Hypotheses[e.From].Name && e.Range != h.Range {
			return fmt.Sprintf("%s depends_on %s", h.Name, name)
		}
	}
	return fmt.Sprintf("pattern %q", in.Pattern)
}
