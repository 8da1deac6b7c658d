package graph

import (
	"fmt"
	"strings"
)

// Cycle is a cycle as a path that starts and ends at the same node, e.g.
// Nodes [0 1 2 0] for 0 → 1 → 2 → 0. Its last edge (second-to-last node →
// last node) is the one that closed it during the search. A cycle longer
// than the limit it was found with keeps only its first and last nodes:
// Len counts its edges, and Omitted nodes are left out at Cut.
type Cycle struct {
	Nodes []int
	Len   int // edges in the whole cycle
	Cut   int // index in Nodes before which Omitted nodes are left out
}

// Omitted returns how many of the cycle's nodes are left out of Nodes.
func (c Cycle) Omitted() int { return c.Len + 1 - len(c.Nodes) }

// Closing returns the edge that closed the cycle: from its second-to-last
// node to its last.
func (c Cycle) Closing() Edge {
	return Edge{From: c.Nodes[len(c.Nodes)-2], To: c.Nodes[len(c.Nodes)-1]}
}

// Format joins the nodes' names with " → ", writing "… N more → " where
// the cycle is abbreviated: the one way nous prints a cycle (plan warnings
// and lint alike).
func (c Cycle) Format(name func(int) string) string {
	var b strings.Builder
	omitted := c.Omitted()
	for i, n := range c.Nodes {
		if i > 0 {
			b.WriteString(" → ")
		}
		if i == c.Cut && omitted > 0 {
			fmt.Fprintf(&b, "… %d more → ", omitted)
		}
		b.WriteString(name(n))
	}
	return b.String()
}

// Limits caps a report of cycles: how many cycles it lists and how many
// nodes of each. Finding them stays O(V+E); the report costs O(Cycles×Nodes).
type Limits struct {
	Cycles int // cycles listed
	Nodes  int // nodes listed per cycle (at least 3: start, …, closing edge)
}

// ReportLimits are the limits nous reports cycles with, in plan warnings and
// lint alike: enough to see and fix a cycle, small enough that a generated
// ruleset cannot flood the output or make the report quadratic.
func ReportLimits() Limits {
	return Limits{Cycles: 10, Nodes: 12}
}

// keep says which nodes of a cycle of n nodes (its start not repeated) a
// report of at most limit nodes names (limit counts the repeated start and
// is at least 3): the first head and the last tail, so the edge that closes
// the cycle stays visible. head+tail == n when the cycle fits.
func keep(n, limit int) (head, tail int) {
	limit = max(limit, 3)
	if n+1 <= limit {
		return n, 0
	}
	head = limit / 2
	return head, limit - head - 1
}

const (
	white = iota // not visited
	grey         // on the current DFS path
	black        // finished
)

// search runs one depth-first search over nodes in order, following edges in
// insertion order and tracking the current path. It calls closed for every
// edge u → path[at] that reaches a node on the path (a back edge), with the
// path as it stands: path[at:] followed by path[at] is the cycle it closes.
// It is iterative, so deep graphs cannot overflow the stack, and O(V+E).
func (g *Graph) search(closed func(path []int, at int)) {
	n := len(g.adj)
	state := make([]uint8, n)
	pos := make([]int, n) // index in path of each grey node
	path := make([]int, 0, 16)
	next := make([]int, 0, 16) // per path entry: index of the next edge to follow
	for root := range n {
		if state[root] != white {
			continue
		}
		state[root], pos[root] = grey, 0
		path, next = append(path[:0], root), append(next[:0], 0)
		for len(path) > 0 {
			top := len(path) - 1
			u := path[top]
			if next[top] == len(g.adj[u]) {
				state[u] = black
				path, next = path[:top], next[:top]
				continue
			}
			v := g.adj[u][next[top]]
			next[top]++
			switch state[v] {
			case white:
				state[v], pos[v] = grey, len(path)
				path, next = append(path, v), append(next, 0)
			case grey:
				closed(path, pos[v])
			}
		}
	}
}

// BackEdges returns the edges that close a cycle in a depth-first search over
// nodes in order. The graph is acyclic exactly when there are none, and
// removing them all leaves it acyclic. O(V+E).
func (g *Graph) BackEdges() []Edge {
	var edges []Edge
	g.search(func(path []int, at int) {
		edges = append(edges, Edge{From: path[len(path)-1], To: path[at]})
	})
	return edges
}

// Cycles returns the cycles closed by the edges BackEdges finds, in the
// same order: the first lim.Cycles of them, each abbreviated to lim.Nodes
// nodes, and how many there are in all. O(V+E) plus the report's size.
func (g *Graph) Cycles(lim Limits) (cycles []Cycle, found int) {
	g.search(func(path []int, at int) {
		found++
		if len(cycles) >= lim.Cycles {
			return
		}
		ring := path[at:] // the cycle without its repeated start
		head, tail := keep(len(ring), lim.Nodes)
		c := Cycle{Len: len(ring), Cut: head, Nodes: make([]int, 0, head+tail+1)}
		c.Nodes = append(c.Nodes, ring[:head]...)
		c.Nodes = append(c.Nodes, ring[len(ring)-tail:]...)
		c.Nodes = append(c.Nodes, path[at])
		if tail == 0 {
			c.Cut = len(c.Nodes) // nothing left out
		}
		cycles = append(cycles, c)
	})
	return cycles, found
}

// BreakCycles makes the graph acyclic: it removes the closing edge of every
// cycle the search finds (from the cycle's second-to-last node to its last)
// and searches again until none is left. It returns the removed edges in the
// order found. O(V+E) per search; one search suffices in practice.
func (g *Graph) BreakCycles() []Edge {
	var removed []Edge
	for {
		back := g.BackEdges()
		if len(back) == 0 {
			return removed
		}
		for _, e := range back {
			if g.RemoveEdge(e.From, e.To) {
				removed = append(removed, e)
			}
		}
	}
}
