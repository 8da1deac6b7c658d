package git

import (
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Bounds of the history index grounding reads once per configured ref.
const (
	maxIndexCommits = 500_000
	maxIndexTime    = 10 * time.Second
)

// history is what grounding knows of the ref's authors: their identities
// and the time extent of the commits it read. It is read once per tip, on
// the first author term, and cached.
type history struct {
	tip plumbing.Hash
	// boundaries names the shallow clone's boundaries it was read with.
	boundaries plumbing.Hash
	identities []string // "Name <email>", sorted, unique
	lower      []string // identities in lower case, same order
	counts     []int    // commits of each identity, same order
	authorOf   []int32  // per commit read: its author's identity
	when       []int64  // per commit read: its committer time, Unix seconds
	personOf   []int    // the person of each identity (group)
	members    [][]int  // each person's identities
	earliest   time.Time
	commits    int
	// cut says why the index stopped before the root; empty when complete.
	cut string
	// completeSince is, when cut, the committer time from which the index
	// holds every commit.
	completeSince time.Time

	partsOnce sync.Once
	parts     *identityParts // see matching
}

// historyBuilder collects a history one commit at a time, newest first.
type historyBuilder struct {
	h     *history
	ids   map[string]int32 // identity → its index in seen order
	order []string
}

func newHistoryBuilder(tip plumbing.Hash) *historyBuilder {
	return &historyBuilder{h: &history{tip: tip}, ids: map[string]int32{}}
}

// add counts one commit by the author name and email, committed at when.
func (b *historyBuilder) add(name, email string, when time.Time) {
	h := b.h
	h.commits++
	id := name + " <" + email + ">"
	at, ok := b.ids[id]
	if !ok {
		at = int32(len(b.order))
		b.ids[id] = at
		b.order = append(b.order, id)
	}
	h.authorOf, h.when = append(h.authorOf, at), append(h.when, when.Unix())
	if h.earliest.IsZero() || when.Before(h.earliest) {
		h.earliest = when
	}
}

// stop marks the history cut short for why: it is complete since the
// oldest commit read (the newest commits are the same whenever a bound
// strikes, so a recent period is judged whole).
func (b *historyBuilder) stop(why string) {
	b.h.cut, b.h.completeSince = why, b.h.earliest
}

// finish sorts the identities and groups them into persons.
func (b *historyBuilder) finish() *history {
	h := b.h
	h.identities = slices.Sorted(slices.Values(b.order))
	sorted := make([]int32, len(b.order)) // seen order → sorted index
	h.lower = make([]string, len(h.identities))
	for i, id := range h.identities {
		h.lower[i], sorted[b.ids[id]] = strings.ToLower(id), int32(i)
	}
	for k, at := range h.authorOf {
		h.authorOf[k] = sorted[at]
	}
	h.counts = h.countsIn(time.Time{}, time.Time{})
	h.group()
	return h
}

// readHistory walks every commit reachable from tip with go-git, newest
// committer time first, within the bounds; a walk cut short keeps what it
// saw and says so.
func readHistory(ctx context.Context, w *walker, tip *object.Commit) (*history, error) {
	ctx, cancel := context.WithTimeout(ctx, maxIndexTime)
	defer cancel()
	b := newHistoryBuilder(tip.Hash)
	seen := map[plumbing.Hash]bool{tip.Hash: true}
	queue := &newestFirst{tip}
	for queue.Len() > 0 {
		if b.h.commits%checkEvery == 0 && ctx.Err() != nil {
			b.stop(fmt.Sprintf("the history index stopped after %d commits (%s bound)", b.h.commits, maxIndexTime))
			break
		}
		if b.h.commits >= maxIndexCommits {
			b.stop(fmt.Sprintf("the history index stopped at %d commits", maxIndexCommits))
			break
		}
		c := heap.Pop(queue).(*object.Commit)
		b.add(c.Author.Name, c.Author.Email, c.Committer.When)
		parents, err := w.parents(c)
		if err != nil {
			return nil, err
		}
		for _, p := range parents {
			if !seen[p.Hash] {
				seen[p.Hash] = true
				heap.Push(queue, p)
			}
		}
	}
	return b.finish(), nil
}

// countsIn counts each identity's commits whose committer time is in
// [since, until); a zero bound is open.
func (h *history) countsIn(since, until time.Time) []int {
	counts := make([]int, len(h.identities))
	for k, at := range h.authorOf {
		if (since.IsZero() || h.when[k] >= since.Unix()) && (until.IsZero() || h.when[k] < until.Unix()) {
			counts[at]++
		}
	}
	return counts
}

// newestFirst is a heap of commits by committer time, newest on top.
type newestFirst []*object.Commit

func (q newestFirst) Len() int           { return len(q) }
func (q newestFirst) Less(i, j int) bool { return q[i].Committer.When.After(q[j].Committer.When) }
func (q newestFirst) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }

// Push adds a commit (heap.Interface).
func (q *newestFirst) Push(x any) { *q = append(*q, x.(*object.Commit)) }

// Pop removes the last commit (heap.Interface).
func (q *newestFirst) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}
