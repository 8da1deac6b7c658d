package lint

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/cyclereport"
)

// cycles reports the dependency cycles inside intent templates, naming each
// listed edge with the position that creates it. Cycles are found by one
// depth-first search per intent over hypotheses in declaration order; each
// back edge closes one cycle, reported at that edge. At most
// cyclereport.MaxCycles cycles are listed in all, each abbreviated to
// cyclereport.MaxNodes nodes as the planner's warnings are, and one more
// diagnostic counts the cycles left out, so the report stays small however
// many cycles a generated ruleset has.
func cycles(rs *rules.Ruleset) hcl.Diagnostics {
	var (
		diags    hcl.Diagnostics
		unlisted int
		first    hcl.Range // where the first unlisted cycle closes
		intents  []string  // with unlisted cycles
	)
	for _, in := range rs.Intents {
		left := unlisted
		eachCycle(len(in.Hypotheses), in.Edges, func(cycle []rules.Edge) {
			if len(diags) < cyclereport.MaxCycles {
				diags = append(diags, cycleDiagnostic(in, cycle))
				return
			}
			if unlisted == 0 {
				first = cycle[len(cycle)-1].Range
			}
			unlisted++
		})
		if unlisted > left {
			intents = append(intents, in.Name)
		}
	}
	if unlisted > 0 {
		names := intents[:min(len(intents), cyclereport.MaxCycles)]
		more := ""
		if len(intents) > len(names) {
			more = fmt.Sprintf(" and %d more intents", len(intents)-len(names))
		}
		diags = append(diags, rules.Error(rules.CheckCycle, first,
			fmt.Sprintf("%d more dependency cycles not listed", unlisted),
			fmt.Sprintf("Lint lists at most %d cycles; the others are in intent %q%s. Fix the cycles listed and lint again.",
				cyclereport.MaxCycles, strings.Join(names, `", "`), more)))
	}
	return diags
}

// eachCycle calls visit for every cycle closed by a back edge of a
// depth-first search over nodes 0..n-1 in order (edges in their order, a
// repeated edge followed once), with the cycle's edges from its first node
// round to the closing edge. The slice is the search's own path, valid only
// during the call, so the search is O(V+E) however long the cycles are. It
// is iterative, so a deep chain cannot overflow the stack. engine/graph has
// the same search over plain nodes; rules may not import engine.
func eachCycle(n int, edges []rules.Edge, visit func(cycle []rules.Edge)) {
	type key struct{ from, to int }
	seen := make(map[key]bool, len(edges))
	out := make([][]rules.Edge, n)
	for _, e := range edges {
		if k := (key{e.From, e.To}); !seen[k] && e.From >= 0 && e.From < n && e.To >= 0 && e.To < n {
			seen[k] = true
			out[e.From] = append(out[e.From], e)
		}
	}
	const (
		unvisited = iota
		onStack
		done
	)
	state := make([]uint8, n)
	depth := make([]int, n) // for a node on the stack: how many path edges lead to it
	var (
		path  []rules.Edge // edges from the search's root to the current node
		nodes []int        // the nodes along path, root first
		next  []int        // per node in nodes: index of the next edge to follow
	)
	for root := range n {
		if state[root] != unvisited {
			continue
		}
		state[root], depth[root] = onStack, 0
		path, nodes, next = path[:0], append(nodes[:0], root), append(next[:0], 0)
		for len(nodes) > 0 {
			top := len(nodes) - 1
			v := nodes[top]
			if next[top] == len(out[v]) {
				state[v] = done
				nodes, next = nodes[:top], next[:top]
				if top > 0 {
					path = path[:top-1]
				}
				continue
			}
			e := out[v][next[top]]
			next[top]++
			switch state[e.To] {
			case unvisited:
				state[e.To], depth[e.To] = onStack, len(nodes)
				path, nodes, next = append(path, e), append(nodes, e.To), append(next, 0)
			case onStack:
				// The cycle is the path from e.To on, closed by e.
				path = append(path, e)
				visit(path[depth[e.To]:])
				path = path[:len(path)-1]
			}
		}
	}
}

// cycleDiagnostic reports one cycle, given as its edges, abbreviated as
// the planner abbreviates cycles (cyclereport.Keep, cyclereport.Format).
func cycleDiagnostic(in *rules.Intent, cycle []rules.Edge) *hcl.Diagnostic {
	name := func(i int) string { return in.Hypotheses[i].Name }
	n := len(cycle)
	head, tail := cyclereport.Keep(n, cyclereport.MaxNodes)
	omitted := n - head - tail
	// listed[i] is the i-th node named: the first head, the last tail and
	// the start again; edge i of the report leaves listed[i].
	listed := make([]rules.Edge, 0, head+tail)
	listed = append(append(listed, cycle[:head]...), cycle[n-tail:]...)
	var detail strings.Builder
	detail.WriteString("Each edge of the cycle:")
	for i, e := range listed {
		if i+1 == head && omitted > 0 {
			fmt.Fprintf(&detail, "\n  … %d more edges", omitted+1)
			continue
		}
		fmt.Fprintf(&detail, "\n  %s → %s at %s (%s)", name(e.From), name(e.To), e.Range, edgeOrigin(in, e))
	}
	detail.WriteString("\nThe planner would break it by dropping the closing edge; remove a depends_on or change the pattern.")
	cut := head
	if omitted == 0 {
		cut = len(listed) + 1
	}
	path := cyclereport.Format(len(listed)+1, cut, omitted, func(i int) string {
		if i == len(listed) {
			return name(cycle[0].From)
		}
		return name(listed[i].From)
	})
	return rules.Error(rules.CheckCycle, cycle[n-1].Range,
		fmt.Sprintf("Dependency cycle in intent %q: %s", in.Name, path), detail.String())
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
