package graph

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fan is the shape that made cycle reports quadratic: a chain 0 → 1 → … →
// n-1 where every node also points back to 0, so the search closes n cycles
// of lengths 1..n (n²/2 nodes in all).
func fan(n int) *Graph {
	g := New(n)
	for i := range n {
		if i+1 < n {
			g.AddEdge(i, i+1)
		}
		g.AddEdge(i, 0)
	}
	return g
}

func TestCyclesReportWithinLimits(t *testing.T) {
	tests := []struct {
		name      string
		g         *Graph
		lim       Limits
		found     int
		listed    int
		firstLen  int
		formatted string // of the first listed cycle
	}{
		{name: "short cycles in full", g: fan(4), lim: Limits{Cycles: 10, Nodes: 12}, found: 4, listed: 4, firstLen: 4, formatted: "0 → 1 → 2 → 3 → 0"},
		{name: "cycles beyond the limit are counted", g: fan(12_000), lim: Limits{Cycles: 3, Nodes: 12}, found: 12_000, listed: 3, firstLen: 12_000,
			formatted: "0 → 1 → 2 → 3 → 4 → 5 → … 11989 more → 11995 → 11996 → 11997 → 11998 → 11999 → 0"},
		{name: "a long cycle keeps its first and last nodes", g: build(100, ringEdges(100)...), lim: Limits{Cycles: 10, Nodes: 8}, found: 1, listed: 1, firstLen: 100,
			formatted: "0 → 1 → 2 → 3 → … 93 more → 97 → 98 → 99 → 0"},
		{name: "the smallest node limit still shows the closing edge", g: build(5, ringEdges(5)...), lim: Limits{Cycles: 1, Nodes: 1}, found: 1, listed: 1, firstLen: 5,
			formatted: "0 → … 3 more → 4 → 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cycles, found := tt.g.Cycles(tt.lim)
			assert.Equal(t, tt.found, found)
			require.Len(t, cycles, tt.listed)
			back := tt.g.BackEdges()
			for i, c := range cycles {
				assert.LessOrEqual(t, len(c.Nodes), max(tt.lim.Nodes, 3))
				assert.Equal(t, c.Len+1, len(c.Nodes)+c.Omitted())
				assert.Equal(t, back[i], c.Closing(), "an abbreviated cycle keeps its closing edge")
			}
			assert.Equal(t, tt.firstLen, cycles[0].Len)
			assert.Equal(t, tt.formatted, cycles[0].Format(strconv.Itoa))
		})
	}
}

func TestKeepAndFormat(t *testing.T) {
	tests := []struct {
		name       string
		n, limit   int
		head, tail int
		want       string
	}{
		{name: "self loop", n: 1, limit: 12, head: 1, want: "0 → 0"},
		{name: "fits exactly", n: 11, limit: 12, head: 11, want: "0 → 1 → 2 → 3 → 4 → 5 → 6 → 7 → 8 → 9 → 10 → 0"},
		{name: "one too long", n: 12, limit: 12, head: 6, tail: 5, want: "0 → 1 → 2 → 3 → 4 → 5 → … 1 more → 7 → 8 → 9 → 10 → 11 → 0"},
		{name: "12k ring", n: 12_000, limit: 12, head: 6, tail: 5, want: "0 → 1 → 2 → 3 → 4 → 5 → … 11989 more → 11995 → 11996 → 11997 → 11998 → 11999 → 0"},
		{name: "limit below 3 still shows the closing edge", n: 5, limit: 1, head: 1, tail: 1, want: "0 → … 3 more → 4 → 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, tail := keep(tt.n, tt.limit)
			assert.Equal(t, []int{tt.head, tt.tail}, []int{head, tail})
			c := Cycle{Len: tt.n, Cut: head}
			for i := range head {
				c.Nodes = append(c.Nodes, i)
			}
			for i := tt.n - tail; i < tt.n; i++ {
				c.Nodes = append(c.Nodes, i)
			}
			c.Nodes = append(c.Nodes, 0)
			if tail == 0 {
				c.Cut = len(c.Nodes)
			}
			assert.Equal(t, tt.n-head-tail, c.Omitted())
			assert.Equal(t, tt.want, c.Format(strconv.Itoa))
		})
	}
}

func ringEdges(n int) []Edge {
	edges := make([]Edge, n)
	for i := range n {
		edges[i] = Edge{i, (i + 1) % n}
	}
	return edges
}

// BenchmarkCycleReport12k measures reporting the cycles of the 12k-node
// fan (12k cycles, 72M nodes if listed in full) within ReportLimits.
func BenchmarkCycleReport12k(b *testing.B) {
	g := fan(12_000)
	b.ReportAllocs()
	for b.Loop() {
		g.Cycles(ReportLimits())
	}
}
