package git

import (
	"container/heap"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// walker visits commits newest first by committer time, like `git log`,
// so a walk bounded by `since` can stop at the first older commit instead
// of reading the whole history. Merges are handled by the time order: every
// reachable commit is queued once, whichever branch reaches it first.
type walker struct {
	store storer.EncodedObjectStorer
	queue commitQueue
	// seen holds every queued commit, so a commit reachable through
	// several parents is visited once.
	seen map[plumbing.Hash]struct{}
}

func newWalker(store storer.EncodedObjectStorer) *walker {
	return &walker{store: store, seen: make(map[plumbing.Hash]struct{})}
}

// load decodes the commit h.
func (w *walker) load(h plumbing.Hash) (*object.Commit, error) {
	return object.GetCommit(w.store, h)
}

// push queues c unless it was queued before.
func (w *walker) push(c *object.Commit) {
	if _, ok := w.seen[c.Hash]; ok {
		return
	}
	w.seen[c.Hash] = struct{}{}
	heap.Push(&w.queue, c)
}

// queued reports whether h was queued already.
func (w *walker) queued(h plumbing.Hash) bool {
	_, ok := w.seen[h]
	return ok
}

// next returns the newest queued commit, nil when none is left.
func (w *walker) next() *object.Commit {
	if w.queue.Len() == 0 {
		return nil
	}
	return heap.Pop(&w.queue).(*object.Commit)
}

// commitQueue is a max-heap on committer time; ties break on hash so the
// order is deterministic.
type commitQueue []*object.Commit

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	ti, tj := q[i].Committer.When, q[j].Committer.When
	if !ti.Equal(tj) {
		return ti.After(tj)
	}
	return q[i].Hash.String() > q[j].Hash.String()
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(*object.Commit)) }
func (q *commitQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return c
}
