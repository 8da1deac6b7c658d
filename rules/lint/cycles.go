package lint

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/rules"
)

// cycles reports the dependency cycles inside intent templates, naming each
// listed edge with the position that creates it. Cycles are the ones
// engine/graph finds (one search per intent over hypotheses in declaration
// order, each back edge closing one cycle, reported at that edge) and are
// abbreviated as the planner's warnings are. At most ReportLimits cycles
// are listed in all, and one more diagnostic counts the cycles left out, so
// the report stays small however many cycles a generated ruleset has.
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
		cycles, found := g.Cycles(graph.Limits{Cycles: lim.Cycles - len(diags), Nodes: lim.Nodes})
		for _, c := range cycles {
			diags = append(diags, cycleDiagnostic(in, c, edges))
		}
		if found == len(cycles) {
			continue
		}
		if unlisted == 0 {
			first = edges[g.BackEdges()[len(cycles)]].Range
		}
		unlisted += found - len(cycles)
		intents = append(intents, in.Name)
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

// intentGraph is the graph of an intent's hypotheses and, for each edge,
// the first rules edge that makes it (a repeated edge is followed once).
func intentGraph(in *rules.Intent) (*graph.Graph, map[graph.Edge]rules.Edge) {
	n := len(in.Hypotheses)
	g := graph.New(n)
	edges := make(map[graph.Edge]rules.Edge, len(in.Edges))
	for _, e := range in.Edges {
		k := graph.Edge{From: e.From, To: e.To}
		if _, ok := edges[k]; ok || e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
			continue
		}
		edges[k] = e
		g.AddEdge(e.From, e.To)
	}
	return g, edges
}

// cycleDiagnostic reports one cycle at its closing edge, listing each edge
// it names with the position that makes it.
func cycleDiagnostic(in *rules.Intent, c graph.Cycle, edges map[graph.Edge]rules.Edge) *hcl.Diagnostic {
	name := func(i int) string { return in.Hypotheses[i].Name }
	var detail strings.Builder
	detail.WriteString("Each edge of the cycle:")
	for i := range len(c.Nodes) - 1 {
		if i+1 == c.Cut && c.Omitted() > 0 {
			fmt.Fprintf(&detail, "\n  … %d more edges", c.Omitted()+1)
			continue
		}
		e := edges[graph.Edge{From: c.Nodes[i], To: c.Nodes[i+1]}]
		fmt.Fprintf(&detail, "\n  %s → %s at %s (%s)", name(e.From), name(e.To), e.Range, edgeOrigin(in, e))
	}
	detail.WriteString("\nThe planner would break it by dropping the closing edge; remove a depends_on or change the pattern.")
	return rules.Error(rules.CheckCycle, edges[c.Closing()].Range,
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
