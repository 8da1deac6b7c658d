package lint

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// cycles reports each dependency cycle inside an intent template, naming
// every edge of it with the position that creates the edge. Cycles are
// found by a depth-first search over hypotheses in declaration order; each
// back edge closes one cycle, reported at that edge.
func cycles(rs *rules.Ruleset) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, in := range rs.Intents {
		for _, cycle := range findCycles(len(in.Hypotheses), in.Edges) {
			diags = append(diags, cycleDiagnostic(in, cycle))
		}
	}
	return diags
}

// findCycles returns the cycles closed by back edges, each as the edges
// from the cycle's first node round to the closing edge.
func findCycles(n int, edges []rules.Edge) [][]rules.Edge {
	out := make([][]rules.Edge, n)
	for _, e := range edges {
		out[e.From] = append(out[e.From], e)
	}
	const (
		unvisited = iota
		onStack
		done
	)
	state := make([]int, n)
	var (
		path   []rules.Edge // edges from the DFS root to the current node
		cycles [][]rules.Edge
		visit  func(v int)
	)
	visit = func(v int) {
		state[v] = onStack
		for _, e := range out[v] {
			switch state[e.To] {
			case unvisited:
				path = append(path, e)
				visit(e.To)
				path = path[:len(path)-1]
			case onStack:
				// The cycle is the path suffix starting at e.To, then e.
				start := len(path)
				for start > 0 && path[start-1].To != e.To {
					start--
				}
				cycle := append(append([]rules.Edge{}, path[start:]...), e)
				cycles = append(cycles, cycle)
			}
		}
		state[v] = done
	}
	for v := range n {
		if state[v] == unvisited {
			visit(v)
		}
	}
	return cycles
}

func cycleDiagnostic(in *rules.Intent, cycle []rules.Edge) *hcl.Diagnostic {
	names := []string{in.Hypotheses[cycle[0].From].Name}
	var detail strings.Builder
	detail.WriteString("Each edge of the cycle:")
	for _, e := range cycle {
		from, to := in.Hypotheses[e.From].Name, in.Hypotheses[e.To].Name
		names = append(names, to)
		fmt.Fprintf(&detail, "\n  %s → %s at %s (%s)", from, to, e.Range, edgeOrigin(in, e))
	}
	detail.WriteString("\nThe planner would break it by dropping the closing edge; remove a depends_on or change the pattern.")
	closing := cycle[len(cycle)-1]
	return rules.Error(rules.CheckCycle, closing.Range,
		fmt.Sprintf("Dependency cycle in intent %q: %s", in.Name, strings.Join(names, " → ")), detail.String())
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
