package git

import (
	"container/heap"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// settleVisits is how many commits older than a held commit the walk
// visits before emitting it; git's rev-list allows five for clock skew.
const settleVisits = 16

// walker visits commits newest first by committer time, like `git log`,
// so a walk bounded by `since` can stop at the first older commit instead
// of reading the whole history. Merges are handled by the time order: every
// reachable commit is queued once, whichever branch reaches it first.
//
// Each queued commit carries two bit sets over the requested revision
// ranges: reach (reachable from range i's tip) and hidden (reachable from
// range i's excluded end). A commit is shown when some range reaches it
// and does not hide it; the marks flow to parents.
//
// Dates do not order history exactly: a maintainer's scripted merges share
// one second with their parents, and clocks skew. So a mark that reaches a
// visited commit queues it again to pass the mark on, and when a range
// excludes anything a shown commit is held until settleVisits older
// commits have been visited: a hidden mark that arrives late still removes
// it. Equal dates are thus exact; a commit dated before its parent is as
// long as the skew spans fewer than settleVisits commits.
type walker struct {
	// load reads a commit.
	load  func(plumbing.Hash) (*object.Commit, error)
	queue nodeQueue
	// nodes holds every queued commit, so a commit reachable through
	// several parents is visited once and collects the marks of all.
	nodes map[plumbing.Hash]*node
	// shallow lists the commits whose parents a shallow clone lacks.
	shallow map[plumbing.Hash]bool
	// interesting counts queued nodes with a shown range: once it is zero
	// only excluded history is left and the walk is over.
	interesting int
	// held are shown commits that match the query, in visit order, with
	// the number of older commits visited since; settle is how many they
	// wait for: 0 until some range excludes a commit.
	held   []heldNode
	settle int
}

// node is a commit of the walk and its range marks.
type node struct {
	c             *object.Commit
	reach, hidden uint64
	// queued: in the queue; judged: matched against the query already.
	queued, judged bool
}

func (n *node) shown() bool { return n.reach&^n.hidden != 0 }

type heldNode struct {
	n     *node
	older int
}

func newWalker(load func(plumbing.Hash) (*object.Commit, error), shallow map[plumbing.Hash]bool) *walker {
	return &walker{load: load, nodes: make(map[plumbing.Hash]*node), shallow: shallow}
}

// push adds the marks reach and hidden to c, queueing it when they are new
// to it: a visited commit goes round again to pass them to its parents.
func (w *walker) push(c *object.Commit, reach, hidden uint64) {
	n, ok := w.nodes[c.Hash]
	if !ok {
		n = &node{c: c}
		w.nodes[c.Hash] = n
	} else if n.reach|reach == n.reach && n.hidden|hidden == n.hidden {
		return
	}
	if hidden != 0 {
		w.settle = settleVisits
	}
	was := n.queued && n.shown()
	n.reach |= reach
	n.hidden |= hidden
	if !n.queued {
		n.queued = true
		heap.Push(&w.queue, n)
	}
	switch now := n.shown(); {
	case now && !was:
		w.interesting++
	case !now && was:
		w.interesting--
	}
}

// next returns the newest queued commit, nil when none is left or when
// only excluded history is left and no commit is held.
func (w *walker) next() *node {
	if w.queue.Len() == 0 || (w.interesting == 0 && len(w.held) == 0) {
		return nil
	}
	n := heap.Pop(&w.queue).(*node)
	n.queued = false
	if n.shown() {
		w.interesting--
	}
	when := n.c.Committer.When
	for i := range w.held {
		if when.Before(w.held[i].n.c.Committer.When) {
			w.held[i].older++
		}
	}
	return n
}

// hold keeps n, a commit that matches the query, until its marks settle.
func (w *walker) hold(n *node) { w.held = append(w.held, heldNode{n: n}) }

// release passes the held commits whose marks are final to emit, in visit
// order (all of them when the walk is over), leaving out those a late mark
// hid, and stops when emit reports done.
func (w *walker) release(over bool, emit func(*node) (bool, error)) (bool, error) {
	i := 0
	for ; i < len(w.held) && (over || w.held[i].older >= w.settle); i++ {
		if n := w.held[i].n; n.shown() {
			if done, err := emit(n); err != nil || done {
				return done, err
			}
		}
	}
	w.held = append(w.held[:0], w.held[i:]...)
	return false, nil
}

// parents loads c's parents. A shallow clone's boundary commit has none
// here, as in git.
func (w *walker) parents(c *object.Commit) ([]*object.Commit, error) {
	if w.shallow[c.Hash] {
		return nil, nil
	}
	out := make([]*object.Commit, 0, len(c.ParentHashes))
	for _, h := range c.ParentHashes {
		if n, ok := w.nodes[h]; ok {
			out = append(out, n.c)
			continue
		}
		p, err := w.load(h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, fmt.Errorf("git: parent %s of %s is missing from the repository (not a shallow clone boundary): %w", h, c.Hash, err)
		}
		if err != nil {
			return nil, fmt.Errorf("git: reading parent %s of %s: %w", h, c.Hash, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// nodeQueue is a max-heap on committer time; ties break on hash so the
// order is deterministic.
type nodeQueue []*node

func (q nodeQueue) Len() int { return len(q) }
func (q nodeQueue) Less(i, j int) bool {
	ti, tj := q[i].c.Committer.When, q[j].c.Committer.When
	if !ti.Equal(tj) {
		return ti.After(tj)
	}
	return q[i].c.Hash.String() > q[j].c.Hash.String()
}
func (q nodeQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *nodeQueue) Push(x any)   { *q = append(*q, x.(*node)) }
func (q *nodeQueue) Pop() any {
	old := *q
	n := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return n
}
