package graph

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drive walks w one node at a time, finishing each started node with its
// outcome (Done when outcomes has none), and logs what happened.
func drive(w *Walk, outcomes map[int]State) []string {
	var log []string
	for {
		for s, ok := w.Skip(); ok; s, ok = w.Skip() {
			log = append(log, fmt.Sprintf("skip %d by %d", s.Node, s.By))
		}
		n, ok := w.Start()
		if !ok {
			return log
		}
		log = append(log, fmt.Sprintf("start %d", n))
		w.Finish(n, cmpOr(outcomes[n], Done))
	}
}

func cmpOr(s, def State) State {
	if s == Pending {
		return def
	}
	return s
}

func TestWalk(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		edges    []Edge
		outcomes map[int]State
		want     []string
	}{
		{name: "chain", n: 3, edges: []Edge{{0, 1}, {1, 2}}, want: []string{"start 0", "start 1", "start 2"}},
		{name: "fan in waits for both", n: 3, edges: []Edge{{0, 2}, {1, 2}}, want: []string{"start 0", "start 1", "start 2"}},
		{name: "lowest-numbered ready node first", n: 4, edges: []Edge{{3, 0}, {2, 1}}, want: []string{"start 2", "start 1", "start 3", "start 0"}},
		{
			name: "a failure skips its descendants, each with its blocker", n: 4,
			edges:    []Edge{{0, 1}, {1, 2}, {0, 3}},
			outcomes: map[int]State{0: Failed},
			want:     []string{"start 0", "skip 1 by 0", "skip 2 by 1", "skip 3 by 0"},
		},
		{
			name: "a failure blocks only its descendants", n: 4,
			edges:    []Edge{{0, 2}, {1, 3}},
			outcomes: map[int]State{0: Failed},
			want:     []string{"start 0", "skip 2 by 0", "start 1", "start 3"},
		},
		{
			name: "skips come in sweeps over node order", n: 5,
			edges:    []Edge{{1, 3}, {3, 0}, {3, 4}},
			outcomes: map[int]State{1: Failed},
			want:     []string{"start 1", "skip 3 by 1", "skip 4 by 3", "skip 0 by 3", "start 2"},
		},
		{
			name: "a tolerated failure does not block while another upstream is done", n: 3,
			edges:    []Edge{{0, 2}, {1, 2}},
			outcomes: map[int]State{0: Tolerated},
			want:     []string{"start 0", "start 1", "start 2"},
		},
		{
			name: "tolerated failures of every upstream block", n: 3,
			edges:    []Edge{{0, 2}, {1, 2}},
			outcomes: map[int]State{0: Tolerated, 1: Tolerated},
			want:     []string{"start 0", "start 1", "skip 2 by 0"},
		},
		{
			name: "a hard failure blocks beside a tolerated one", n: 3,
			edges:    []Edge{{0, 2}, {1, 2}},
			outcomes: map[int]State{0: Tolerated, 1: Failed},
			want:     []string{"start 0", "start 1", "skip 2 by 1"},
		},
		{
			name: "a held node makes its downstreams wait", n: 3,
			edges:    []Edge{{0, 1}},
			outcomes: map[int]State{0: Held},
			want:     []string{"start 0", "start 2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := build(tt.n, tt.edges...).Walk()
			assert.Equal(t, tt.want, drive(w, tt.outcomes))
		})
	}
}

func TestWalkGrowsAndResets(t *testing.T) {
	// 0 → 1; 0 is held (it awaits a refinement), then the refinement adds
	// a sibling 2 of 0 that 1 waits for too, and 0 is done after all.
	w := NewWalk(0)
	require.Equal(t, 0, w.Add())
	require.Equal(t, 1, w.Add(0))
	assert.Equal(t, []string{"start 0"}, drive(w, map[int]State{0: Held}))
	assert.Equal(t, Pending, w.State(1))

	sibling := w.Add()
	w.Depend(1, sibling)
	w.Finish(0, Done)
	assert.Equal(t, []int{0, 2}, w.Upstreams(1))
	assert.Equal(t, []string{"start 2", "start 1"}, drive(w, nil))

	// A reset node runs again, and so may its downstreams once reset.
	w.Reset(0)
	w.Reset(1)
	assert.Equal(t, []string{"start 0", "start 1"}, drive(w, nil))
	assert.Equal(t, Done, w.State(1))

	// A node added below a failed one is skipped at once.
	w.Reset(2)
	assert.Equal(t, []string{"start 2"}, drive(w, map[int]State{2: Failed}))
	late := w.Add(2)
	s, ok := w.Skip()
	require.True(t, ok)
	assert.Equal(t, Skip{Node: late, By: 2}, s)
}

func TestWalkDoesNotChangeTheGraph(t *testing.T) {
	g := build(2, Edge{0, 1})
	w := g.Walk()
	w.Depend(1, w.Add())
	w.Depend(w.Add(), 0)
	assert.Equal(t, []Edge{{0, 1}}, g.Edges())
}

func TestOrderOfCyclicGraphStopsTheWalk(t *testing.T) {
	w := build(3, Edge{0, 1}, Edge{1, 0}).Walk()
	assert.Equal(t, []string{"start 2"}, drive(w, nil))
	assert.Equal(t, Pending, w.State(0))
}

// checkWalk walks a random DAG grown and finished in a random interleaving
// drawn from seed, and checks that every node runs at most once, only after
// all its upstreams are done, that exactly the descendants of failures are
// skipped, and that the same seed gives the same walk.
func checkWalk(t *testing.T, seed uint64) {
	first := walkLog(t, seed)
	assert.Equal(t, first, walkLog(t, seed), "deterministic")
}

func walkLog(t *testing.T, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, seed>>32))
	w := NewWalk(0)
	var (
		ups     [][]int
		outcome []State
		started = map[int]bool{}
		skipped = map[int]bool{}
		running []int
		log     []string
	)
	add := func() {
		var up []int
		for u := range len(ups) {
			if rng.IntN(4) == 0 {
				up = append(up, u)
			}
		}
		ups = append(ups, up)
		outcome = append(outcome, []State{Done, Done, Done, Failed}[rng.IntN(4)])
		require.Equal(t, len(ups)-1, w.Add(up...))
	}
	for range 2 + rng.IntN(12) {
		add()
	}
	for step := 0; ; step++ {
		for s, ok := w.Skip(); ok; s, ok = w.Skip() {
			require.False(t, skipped[s.Node] || started[s.Node], "node %d visited once", s.Node)
			skipped[s.Node] = true
			require.Contains(t, ups[s.Node], s.By)
			require.Contains(t, []State{Failed, Skipped}, w.State(s.By))
			log = append(log, fmt.Sprintf("skip %d by %d", s.Node, s.By))
		}
		switch {
		case step < 40 && rng.IntN(8) == 0:
			add() // a node added mid-run, as ADD refinements do
			log = append(log, fmt.Sprintf("add %d", len(ups)-1))
		case w.Ready() && (len(running) == 0 || rng.IntN(2) == 0):
			n, _ := w.Start()
			require.False(t, skipped[n] || started[n], "node %d visited once", n)
			for _, u := range ups[n] {
				require.Equal(t, Done, w.State(u), "node %d starts after upstream %d", n, u)
			}
			started[n] = true
			running = append(running, n)
			log = append(log, fmt.Sprintf("start %d", n))
		case len(running) > 0:
			i := rng.IntN(len(running))
			n := running[i]
			running = append(running[:i], running[i+1:]...)
			w.Finish(n, outcome[n])
			log = append(log, fmt.Sprintf("finish %d", n))
		default:
			// The walk is over: a node is skipped exactly when an
			// upstream failed or was skipped, else it ran.
			for n := range ups {
				blocked := false
				for _, u := range ups[n] {
					blocked = blocked || skipped[u] || started[u] && outcome[u] == Failed
				}
				assert.Equal(t, blocked, skipped[n], "node %d skipped", n)
				assert.Equal(t, !blocked, started[n], "node %d ran", n)
			}
			return log
		}
	}
}

func TestWalkProperties(t *testing.T) {
	for seed := range uint64(500) {
		checkWalk(t, seed)
	}
}

func FuzzWalk(f *testing.F) {
	for _, seed := range []uint64{0, 1, 42, 1 << 40} {
		f.Add(seed)
	}
	f.Fuzz(checkWalk)
}

// BenchmarkWalkChain3 is the walk of a 3-node chain, as the runner walks a
// 3-step plan.
func BenchmarkWalkChain3(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		w := NewWalk(0)
		w.Add(w.Add(w.Add()))
		for {
			n, ok := w.Start()
			if !ok {
				break
			}
			w.Finish(n, Done)
		}
	}
}
