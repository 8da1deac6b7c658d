package graph

// Cycle is a cycle as a path that starts and ends at the same node, e.g.
// [0 1 2 0] for 0 → 1 → 2 → 0. Its last edge (second-to-last node → last
// node) is the one that closed it during the search.
type Cycle []int

// Closing returns the edge that closed the cycle: from its second-to-last
// node to its last.
func (c Cycle) Closing() Edge {
	return Edge{From: c[len(c)-2], To: c[len(c)-1]}
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

// Cycles returns, for each edge BackEdges finds and in the same order, the
// cycle it closes: the search path from the edge's target back to it. This
// costs the cycles' total length on top of O(V+E).
func (g *Graph) Cycles() []Cycle {
	var cycles []Cycle
	g.search(func(path []int, at int) {
		c := make(Cycle, 0, len(path)-at+1)
		cycles = append(cycles, append(append(c, path[at:]...), path[at]))
	})
	return cycles
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
