package graph

// State is where a node stands in a walk.
type State uint8

// The states of a node. A node starts Pending; Start makes it Running and
// Finish gives it its outcome, which decides what its downstreams do.
const (
	Pending   State = iota // waits for its upstreams
	Running                // started, not finished
	Done                   // finished well: its downstreams may run
	Failed                 // finished badly: its downstreams are skipped
	Tolerated              // failed, but a downstream goes on while another of its upstreams is done or may still be
	Held                   // finished without a verdict: its downstreams wait until it is reset
	Skipped                // never ran: an upstream failed or was skipped
)

// Skip is a node the walk skipped and the upstream that blocked it.
type Skip struct {
	Node, By int
}

// Walk is a deterministic walk over a DAG that grows as it runs: it hands
// out the nodes whose upstreams are all done, lowest-numbered first, and
// skips the nodes a failed upstream blocks. The caller runs the nodes (in
// parallel or not) and reports each outcome with Finish; nodes and edges
// may be added and nodes reset to Pending at any time. The walk does no
// I/O and starts no goroutines, so a caller that feeds it the same
// outcomes in the same order gets the same walk.
type Walk struct {
	nodes []node
	ready minHeap
	// Nodes to skip are taken in sweeps over node order, as a scan of the
	// nodes would find them: skip holds those after cursor (the node last
	// skipped) for this sweep, later those for the next; -1 between sweeps.
	skip, later minHeap
	cursor      int
}

// node is one node of a walk and how many of its upstreams are in each
// state that decides whether it may run.
type node struct {
	up, down  []int
	state     State
	done      int // upstreams Done
	blocking  int // upstreams Failed or Skipped
	tolerated int // upstreams Tolerated
}

// NewWalk returns a walk with no nodes and room for n.
func NewWalk(n int) *Walk {
	return &Walk{nodes: make([]node, 0, n), ready: make(minHeap, 0, n), cursor: -1}
}

// Walk returns a walk over g's nodes, each one's upstreams in node order.
// Later changes to the walk do not change g.
func (g *Graph) Walk() *Walk {
	w := &Walk{nodes: make([]node, len(g.adj)), cursor: -1}
	in := g.indegrees()
	edges := 0
	for _, d := range in {
		edges += d
	}
	backing := make([]int, 0, edges)
	for v, d := range in {
		w.nodes[v].up = backing[len(backing) : len(backing) : len(backing)+d]
		backing = backing[:len(backing)+d]
	}
	for u, succ := range g.adj {
		w.nodes[u].down = succ[:len(succ):len(succ)] // appends copy, never write into g
		for _, v := range succ {
			w.nodes[v].up = append(w.nodes[v].up, u)
		}
	}
	for v := range w.nodes {
		w.check(v)
	}
	return w
}

// Len returns the number of nodes.
func (w *Walk) Len() int { return len(w.nodes) }

// State returns the state of node n.
func (w *Walk) State(n int) State { return w.nodes[n].state }

// Upstreams returns the nodes n waits for, in the order they were given.
// The slice belongs to the walk.
func (w *Walk) Upstreams(n int) []int { return w.nodes[n].up }

// Add adds a Pending node that waits for the given upstreams and returns
// its number, the next after the existing nodes.
func (w *Walk) Add(up ...int) int {
	n := len(w.nodes)
	w.nodes = append(w.nodes, node{})
	if len(up) > 0 {
		w.nodes[n].up = make([]int, 0, len(up))
	}
	for _, u := range up {
		w.link(n, u)
	}
	w.check(n)
	return n
}

// Depend makes node n wait for upstream u too.
func (w *Walk) Depend(n, u int) {
	w.link(n, u)
	w.check(n)
}

// link adds the edge u → n and counts u's state at n.
func (w *Walk) link(n, u int) {
	w.nodes[n].up = append(w.nodes[n].up, u)
	w.nodes[u].down = append(w.nodes[u].down, n)
	w.nodes[n].count(w.nodes[u].state, 1)
}

// Ready reports whether a node can be started now.
func (w *Walk) Ready() bool {
	for len(w.ready) > 0 {
		if w.runnable(w.ready[0]) {
			return true
		}
		w.ready.pop() // stale: started, reset or blocked since it was queued
	}
	return false
}

// Start marks the lowest-numbered ready node Running and returns it; ok
// is false when no node is ready.
func (w *Walk) Start() (n int, ok bool) {
	if !w.Ready() {
		return 0, false
	}
	n = w.ready.pop()
	w.set(n, Running)
	return n, true
}

// Finish gives node n its outcome: Done, Failed, Tolerated or Held.
func (w *Walk) Finish(n int, s State) { w.set(n, s) }

// Reset makes node n Pending again, to run once more.
func (w *Walk) Reset(n int) {
	w.set(n, Pending)
	w.check(n)
}

// Skip marks the next node that a failed or skipped upstream blocks
// Skipped and returns it with the upstream that blocked it; ok is false
// when none is blocked. Nodes are skipped in sweeps over node order, so a
// skip that blocks a lower-numbered node is followed by that node in the
// next sweep.
func (w *Walk) Skip() (s Skip, ok bool) {
	for {
		if len(w.skip) == 0 {
			if len(w.later) == 0 {
				w.cursor = -1
				return Skip{}, false
			}
			w.skip, w.later, w.cursor = w.later, w.skip, -1
		}
		n := w.skip.pop()
		if !w.blocked(n) {
			continue // stale: already skipped
		}
		w.cursor = n
		s = Skip{Node: n, By: w.blocker(n)}
		w.set(n, Skipped)
		return s, true
	}
}

// set moves n to state s and recounts it at its downstreams.
func (w *Walk) set(n int, s State) {
	old := w.nodes[n].state
	if old == s {
		return
	}
	w.nodes[n].state = s
	for _, d := range w.nodes[n].down {
		w.nodes[d].count(old, -1)
		w.nodes[d].count(s, 1)
		w.check(d)
	}
}

// count adds delta to the counter of upstreams in state s.
func (x *node) count(s State, delta int) {
	switch s {
	case Done:
		x.done += delta
	case Failed, Skipped:
		x.blocking += delta
	case Tolerated:
		x.tolerated += delta
	}
}

// check queues n to start or to skip when it can be.
func (w *Walk) check(n int) {
	switch {
	case w.runnable(n):
		w.ready.push(n)
	case w.blocked(n):
		if n > w.cursor {
			w.skip.push(n)
		} else {
			w.later.push(n)
		}
	}
}

// runnable reports whether n is Pending and every upstream is Done or
// Tolerated, at least one Done.
func (w *Walk) runnable(n int) bool {
	x := &w.nodes[n]
	return x.state == Pending && x.blocking == 0 && x.done+x.tolerated == len(x.up) && (x.done > 0 || len(x.up) == 0)
}

// blocked reports whether n is Pending and can never run: an upstream
// failed or was skipped, or every upstream is Tolerated.
func (w *Walk) blocked(n int) bool {
	x := &w.nodes[n]
	return x.state == Pending && (x.blocking > 0 || len(x.up) > 0 && x.tolerated == len(x.up))
}

// blocker is the upstream that blocks n: the first Failed or Skipped, else
// the first Tolerated.
func (w *Walk) blocker(n int) int {
	first := -1
	for _, u := range w.nodes[n].up {
		switch w.nodes[u].state {
		case Failed, Skipped:
			return u
		case Tolerated:
			if first < 0 {
				first = u
			}
		}
	}
	return first
}
