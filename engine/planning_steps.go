package engine

import (
	"cmp"
	"slices"

	"github.com/nous-dev/nous/engine/graph"
)

// stackSteps is how many steps a plan may have before its scratch space
// moves from the stack to the heap.
const stackSteps = 64

// hypotheses numbers the accepted intents' hypotheses h0, h1, … in intent
// order then declaration order, resolves their dependencies (breaking any
// cycle) and builds the dependency map and the steps.
func (b *builder) hypotheses() {
	n := b.steps
	// Dependencies as flat step numbers: step i depends on flat[start[i]:start[i+1]].
	var (
		flatBuf  [2 * stackSteps]int
		startBuf [stackSteps + 1]int
		flat     = flatBuf[:0]
		start    = startBuf[:0]
	)
	cyclic := false
	for _, a := range b.acc {
		cyclic = cyclic || a.tpl.cyclic
	}
	if cross := b.crossEdges(); cyclic || len(cross) > 0 {
		flat, start = b.acyclic(cross)
	} else {
		for _, a := range b.acc {
			for _, deps := range a.tpl.deps {
				start = append(start, len(flat))
				for _, d := range deps {
					flat = append(flat, a.base+d)
				}
			}
		}
		start = append(start, len(flat))
	}

	p := b.p
	hyps := make([]Hypothesis, n)
	steps := make([]Step, n)
	nodes := make([]string, n)
	depIDs := make([]string, len(flat))
	for ai, a := range b.acc {
		for j, h := range a.tpl.intent.Hypotheses {
			i := a.base + j
			id := p.stepID(i)
			lo, hi := start[i], start[i+1]
			for k := lo; k < hi; k++ {
				depIDs[k] = p.stepID(flat[k])
			}
			nodes[i] = id
			hyps[i] = Hypothesis{
				ID: id, Description: h.Description, Dependencies: depIDs[lo:hi:hi],
				Intent: a.Type, IntentIndex: ai, Name: h.Name, Action: Action(h.Action), Agent: h.Agent, Role: Role(h.Role),
			}
			steps[i] = a.tpl.steps[j]
			steps[i].ID = id
		}
	}
	b.plan.Reasoning.Hypotheses = hyps
	b.plan.Reasoning.DependencyMap = DependencyMap{Nodes: nodes, Edges: b.edges(nodes, flat, start)}
	b.plan.Steps = steps
}

// scratch returns n zeroed ints, in buf when it is large enough.
func scratch(buf []int, n int) []int {
	if n > len(buf) {
		return make([]int, n)
	}
	s := buf[:n]
	clear(s)
	return s
}

// edges inverts the dependency lists into from → [to], each list ascending.
func (b *builder) edges(nodes []string, flat, start []int) map[string][]string {
	n := len(nodes)
	var posBuf [stackSteps + 1]int
	pos := scratch(posBuf[:], n+1)
	for _, u := range flat {
		pos[u+1]++
	}
	froms := 0
	for u := range n {
		if pos[u+1] > 0 {
			froms++
		}
		pos[u+1] += pos[u]
	}
	edges := make(map[string][]string, froms)
	if froms == 0 {
		return edges
	}
	to := make([]string, len(flat))
	for u := range n {
		if lo, hi := pos[u], pos[u+1]; hi > lo {
			edges[nodes[u]] = to[lo:lo:hi]
		}
	}
	for v := range n {
		for _, u := range flat[start[v]:start[v+1]] {
			id := nodes[u]
			edges[id] = append(edges[id], nodes[v])
		}
	}
	return edges
}

// acyclic builds the full graph (templates' edges and cross-intent edges),
// breaks its cycles with a warning for each, and returns its dependency
// lists in the flat form.
func (b *builder) acyclic(cross []graph.Edge) (flat, start []int) {
	n := b.steps
	all := slices.Clone(cross)
	for _, a := range b.acc {
		for j, deps := range a.tpl.deps {
			for _, d := range deps {
				all = append(all, graph.Edge{From: a.base + d, To: a.base + j})
			}
		}
	}
	slices.SortFunc(all, func(x, y graph.Edge) int {
		return cmp.Or(cmp.Compare(x.From, y.From), cmp.Compare(x.To, y.To))
	})
	g := graph.New(n)
	for _, e := range all {
		g.AddEdge(e.From, e.To)
	}
	lim := graph.ReportLimits()
	reported, unlisted := 0, 0
	for {
		back := g.BackEdges()
		if len(back) == 0 {
			break
		}
		cycles, _ := g.Cycles(graph.Limits{Cycles: lim.Cycles - reported, Nodes: lim.Nodes})
		for i, e := range back {
			if !g.RemoveEdge(e.From, e.To) {
				continue
			}
			if i >= len(cycles) {
				unlisted++
				continue
			}
			reported++
			b.diag(SeverityWarning, "cycle_broken", "dependency cycle %s broken by removing the edge %s → %s",
				cycles[i].Format(b.p.stepID), b.p.stepID(e.From), b.p.stepID(e.To))
		}
	}
	if unlisted > 0 {
		b.diag(SeverityWarning, "cycle_broken", "%d more dependency cycles broken, not listed (at most %d are)", unlisted, lim.Cycles)
	}
	start = make([]int, n+1)
	for u := range n {
		for _, v := range g.Successors(u) {
			start[v+1]++
		}
	}
	for v := range n {
		start[v+1] += start[v]
	}
	flat = make([]int, start[n])
	next := slices.Clone(start[:n])
	for u := range n { // ascending u keeps each list ascending
		for _, v := range g.Successors(u) {
			flat[next[v]] = u
			next[v]++
		}
	}
	return flat, start
}
