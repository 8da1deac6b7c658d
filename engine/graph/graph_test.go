package graph

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func build(n int, edges ...Edge) *Graph {
	g := New(n)
	for _, e := range edges {
		g.AddEdge(e.From, e.To)
	}
	return g
}

// cyc is a cycle listed in full.
func cyc(nodes ...int) Cycle { return Cycle{Nodes: nodes, Len: len(nodes) - 1, Cut: len(nodes)} }

// all lists every cycle in full.
var all = Limits{Cycles: math.MaxInt, Nodes: math.MaxInt}

func TestCycles(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		edges []Edge
		want  []Cycle
	}{
		{name: "empty", n: 0},
		{name: "chain", n: 3, edges: []Edge{{0, 1}, {1, 2}}},
		{name: "fan in", n: 3, edges: []Edge{{0, 2}, {1, 2}}},
		{name: "diamond is no cycle", n: 4, edges: []Edge{{0, 1}, {0, 2}, {1, 3}, {2, 3}}},
		{name: "seed example h0→h1→h2→h0", n: 3, edges: []Edge{{0, 1}, {1, 2}, {2, 0}}, want: []Cycle{cyc(0, 1, 2, 0)}},
		{name: "self loop", n: 2, edges: []Edge{{0, 1}, {1, 1}}, want: []Cycle{cyc(1, 1)}},
		{name: "two disjoint cycles", n: 4, edges: []Edge{{0, 1}, {1, 0}, {2, 3}, {3, 2}}, want: []Cycle{cyc(0, 1, 0), cyc(2, 3, 2)}},
		{name: "cycle entered late", n: 4, edges: []Edge{{0, 1}, {1, 2}, {2, 3}, {3, 1}}, want: []Cycle{cyc(1, 2, 3, 1)}},
		{name: "two cycles sharing a node", n: 3, edges: []Edge{{0, 1}, {1, 0}, {1, 2}, {2, 1}}, want: []Cycle{cyc(0, 1, 0), cyc(1, 2, 1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, found := build(tt.n, tt.edges...).Cycles(all)
			assert.Equal(t, len(tt.want), found)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestBreakCycles(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		edges     []Edge
		removed   []Edge
		remaining []Edge
	}{
		{
			name: "acyclic graph is untouched", n: 3,
			edges:     []Edge{{0, 1}, {1, 2}},
			remaining: []Edge{{0, 1}, {1, 2}},
		},
		{
			name: "seed example keeps h0→h1→h2", n: 3,
			edges:     []Edge{{0, 1}, {1, 2}, {2, 0}},
			removed:   []Edge{{2, 0}},
			remaining: []Edge{{0, 1}, {1, 2}},
		},
		{
			name: "every cycle broken", n: 4,
			edges:     []Edge{{0, 1}, {1, 0}, {2, 3}, {3, 2}, {1, 2}},
			removed:   []Edge{{1, 0}, {3, 2}},
			remaining: []Edge{{0, 1}, {1, 2}, {2, 3}},
		},
		{
			name: "self loop removed", n: 1,
			edges:   []Edge{{0, 0}},
			removed: []Edge{{0, 0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(tt.n, tt.edges...)
			var closing []Edge
			cycles, _ := g.Cycles(all)
			for _, c := range cycles {
				closing = append(closing, c.Closing())
			}
			assert.Equal(t, closing, g.BackEdges(), "back edges are the cycles' closing edges")
			removed := g.BreakCycles()
			assert.Equal(t, tt.removed, removed)
			assert.Equal(t, tt.remaining, g.Edges())
			_, found := g.Cycles(all)
			assert.Zero(t, found)
		})
	}
}

func TestLevels(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		edges  []Edge
		levels [][]int
	}{
		{name: "empty", n: 0, levels: [][]int{}},
		{name: "chain", n: 3, edges: []Edge{{0, 1}, {1, 2}}, levels: [][]int{{0}, {1}, {2}}},
		{name: "parallel start", n: 3, edges: []Edge{{0, 2}, {1, 2}}, levels: [][]int{{0, 1}, {2}}},
		{
			name: "two independent chains keep node order", n: 6,
			edges:  []Edge{{0, 1}, {1, 2}, {3, 4}, {4, 5}},
			levels: [][]int{{0, 3}, {1, 4}, {2, 5}},
		},
		{
			name: "backward edge reorders", n: 3,
			edges:  []Edge{{2, 0}},
			levels: [][]int{{1, 2}, {0}},
		},
		{
			name: "longest path decides the level", n: 4,
			edges:  []Edge{{0, 3}, {0, 1}, {1, 2}, {2, 3}},
			levels: [][]int{{0}, {1}, {2}, {3}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(tt.n, tt.edges...)
			levels, err := g.Levels()
			require.NoError(t, err)
			assert.Equal(t, tt.levels, levels)
		})
	}
}

func TestOrderOfCyclicGraphFails(t *testing.T) {
	g := build(3, Edge{0, 1}, Edge{1, 2}, Edge{2, 0})
	_, err := g.Levels()
	var ce *CycleError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, []Cycle{cyc(0, 1, 2, 0)}, ce.Cycles)
	assert.Equal(t, 1, ce.Found)
	assert.EqualError(t, err, "graph has 1 cycle(s), first 0 → 1 → 2 → 0")
	_, err = g.Levels()
	require.ErrorAs(t, err, &ce)
}

func TestEdgeEditing(t *testing.T) {
	g := build(3, Edge{0, 1}, Edge{0, 2}, Edge{0, 1})
	assert.Equal(t, []int{1, 2}, g.Successors(0), "duplicate edge ignored")
	assert.True(t, g.RemoveEdge(0, 1))
	assert.False(t, g.RemoveEdge(0, 1))
	assert.Equal(t, []Edge{{0, 2}}, g.Edges())
	assert.Equal(t, 3, g.Len())
}

func TestDeepChainDoesNotRecurse(t *testing.T) {
	const n = 200_000
	g := New(n)
	for i := 0; i+1 < n; i++ {
		g.AddEdge(i, i+1)
	}
	g.AddEdge(n-1, 0)
	cycles, found := g.Cycles(all)
	require.Len(t, cycles, 1)
	assert.Equal(t, 1, found)
	assert.Len(t, cycles[0].Nodes, n+1)
	assert.Equal(t, Edge{n - 1, 0}, cycles[0].Closing())
}
