// Package graph holds nous's directed-graph algorithms: the deterministic
// walk every scheduler uses (ready set, skip on failed upstream, nodes added
// as it runs), topological order and levels (walks themselves), and cycle
// detection, breaking and reporting. Nodes are the integers 0..n-1 in their
// given order; every algorithm visits nodes and edges in that order, so
// results are reproducible. All algorithms are iterative and linear in
// nodes + edges (the walk adds a log factor for its ready queue). The
// package imports only the standard library.
package graph

// Graph is a directed graph over nodes 0..n-1 with ordered adjacency lists.
type Graph struct {
	adj [][]int
}

// Edge is a directed edge From → To.
type Edge struct {
	From, To int
}

// New returns a graph of n nodes and no edges.
func New(n int) *Graph {
	return &Graph{adj: make([][]int, n)}
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return len(g.adj) }

// AddEdge adds the edge from → to after the edges already leaving from.
// Adding an existing edge again is a no-op.
func (g *Graph) AddEdge(from, to int) {
	for _, v := range g.adj[from] {
		if v == to {
			return
		}
	}
	g.adj[from] = append(g.adj[from], to)
}

// RemoveEdge removes the edge from → to and reports whether it existed.
func (g *Graph) RemoveEdge(from, to int) bool {
	succ := g.adj[from]
	for i, v := range succ {
		if v == to {
			g.adj[from] = append(succ[:i], succ[i+1:]...)
			return true
		}
	}
	return false
}

// Successors returns the nodes from points to, in insertion order. The
// slice belongs to the graph.
func (g *Graph) Successors(from int) []int { return g.adj[from] }

// Edges returns every edge, ordered by source node then insertion order.
func (g *Graph) Edges() []Edge {
	var out []Edge
	for u, succ := range g.adj {
		for _, v := range succ {
			out = append(out, Edge{From: u, To: v})
		}
	}
	return out
}
