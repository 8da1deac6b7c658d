package graph

import "testing"

// randomGraph returns n nodes and m edges from a fixed linear congruential
// sequence, so every run measures the same graph.
func randomGraph(n, m int) *Graph {
	g := New(n)
	x := uint64(42)
	for range m {
		x = x*6364136223846793005 + 1442695040888963407
		from := int(x>>33) % n
		x = x*6364136223846793005 + 1442695040888963407
		to := int(x>>33) % n
		g.adj[from] = append(g.adj[from], to)
	}
	return g
}

// BenchmarkCycleDetection10kNodes20kEdges measures detection: one search
// that finds every edge closing a cycle (the design target, ≤ 3 ms).
func BenchmarkCycleDetection10kNodes20kEdges(b *testing.B) {
	g := randomGraph(10_000, 20_000)
	b.ReportAllocs()
	for b.Loop() {
		g.BackEdges()
	}
}

// BenchmarkCyclePaths10kNodes20kEdges also copies out every cycle's path;
// on this dense random graph the paths are thousands of nodes long, so the
// copying, not the search, dominates.
func BenchmarkCyclePaths10kNodes20kEdges(b *testing.B) {
	g := randomGraph(10_000, 20_000)
	b.ReportAllocs()
	for b.Loop() {
		g.Cycles(all)
	}
}

func BenchmarkBreakCycles10kNodes20kEdges(b *testing.B) {
	base := randomGraph(10_000, 20_000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		g := &Graph{adj: make([][]int, len(base.adj))}
		for i, s := range base.adj {
			g.adj[i] = append([]int(nil), s...)
		}
		b.StartTimer()
		g.BreakCycles()
	}
}

func BenchmarkLevels10kNodes20kEdges(b *testing.B) {
	g := randomGraph(10_000, 20_000)
	g.BreakCycles()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.Levels(); err != nil {
			b.Fatal(err)
		}
	}
}
