package graph

import (
	"fmt"
	"strconv"
)

// CycleError reports that an ordering was asked of a cyclic graph.
// Cycles is abbreviated to ReportLimits; Found counts every cycle the
// search closed.
type CycleError struct {
	Cycles []Cycle
	Found  int
}

// Error names how many cycles there are and the first.
func (e *CycleError) Error() string {
	return fmt.Sprintf("graph has %d cycle(s), first %s", e.Found, e.Cycles[0].Format(strconv.Itoa))
}

// cycleError reports the graph's cycles within ReportLimits.
func (g *Graph) cycleError() *CycleError {
	cycles, found := g.Cycles(ReportLimits())
	return &CycleError{Cycles: cycles, Found: found}
}

// indegrees returns each node's number of incoming edges.
func (g *Graph) indegrees() []int {
	in := make([]int, len(g.adj))
	for _, succ := range g.adj {
		for _, v := range succ {
			in[v]++
		}
	}
	return in
}

// Levels groups nodes by the length of the longest path reaching them: level
// 0 has no predecessors, and every node's predecessors sit in earlier levels,
// so the nodes of one level can run in parallel. Nodes keep their order within
// a level. A cyclic graph gives a *CycleError.
func (g *Graph) Levels() ([][]int, error) {
	n := len(g.adj)
	in := g.indegrees()
	level := make([]int, n)
	queue := make([]int, 0, n)
	for u, d := range in {
		if d == 0 {
			queue = append(queue, u)
		}
	}
	depth := 0
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		for _, v := range g.adj[u] {
			level[v] = max(level[v], level[u]+1)
			if in[v]--; in[v] == 0 {
				queue = append(queue, v)
			}
		}
		depth = max(depth, level[u]+1)
	}
	if len(queue) < n {
		return nil, g.cycleError()
	}
	sizes := make([]int, depth)
	for _, l := range level {
		sizes[l]++
	}
	backing := make([]int, 0, n)
	levels := make([][]int, depth)
	for l, size := range sizes {
		levels[l] = backing[len(backing) : len(backing) : len(backing)+size]
		backing = backing[:len(backing)+size]
	}
	for u, l := range level {
		levels[l] = append(levels[l], u)
	}
	return levels, nil
}

// minHeap is a binary min-heap of node numbers.
type minHeap []int

func (h *minHeap) push(x int) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if s[parent] <= s[i] {
			break
		}
		s[parent], s[i] = s[i], s[parent]
		i = parent
	}
}

func (h *minHeap) pop() int {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		small, l, r := i, 2*i+1, 2*i+2
		if l < len(s) && s[l] < s[small] {
			small = l
		}
		if r < len(s) && s[r] < s[small] {
			small = r
		}
		if small == i {
			break
		}
		s[i], s[small] = s[small], s[i]
		i = small
	}
	*h = s
	return top
}
