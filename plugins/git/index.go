package git

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Bounds of the history index grounding reads once per configured ref.
const (
	maxIndexCommits = 500_000
	maxIndexTime    = 10 * time.Second
)

// history is what grounding knows of the ref's history: the authors'
// identities and its time extent. It is read once per tip and cached.
type history struct {
	tip        plumbing.Hash
	identities []string // "Name <email>", sorted, unique
	lower      []string // identities in lower case, same order
	counts     []int    // commits of each identity, same order
	earliest   time.Time
	latest     time.Time
	commits    int
	// cut says why the index stopped before the root; empty when complete.
	cut string
	// boundary is the newest shallow commit reached, nil when none.
	boundary *object.Commit
}

// readHistory walks every commit reachable from tip, in any order, within
// the bounds; a walk cut short keeps what it saw and says so in cut.
func readHistory(ctx context.Context, w *walker, tip *object.Commit) (*history, error) {
	ctx, cancel := context.WithTimeout(ctx, maxIndexTime)
	defer cancel()
	h := &history{tip: tip.Hash}
	seen := map[plumbing.Hash]bool{tip.Hash: true}
	ids := map[string]int{}
	stack := []*object.Commit{tip}
	for len(stack) > 0 {
		if h.commits%checkEvery == 0 && ctx.Err() != nil {
			h.cut = fmt.Sprintf("the history index stopped after %d commits (%s bound)", h.commits, maxIndexTime)
			break
		}
		if h.commits >= maxIndexCommits {
			h.cut = fmt.Sprintf("the history index stopped at %d commits", maxIndexCommits)
			break
		}
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		h.commits++
		ids[c.Author.Name+" <"+c.Author.Email+">"]++
		when := c.Committer.When
		if h.earliest.IsZero() || when.Before(h.earliest) {
			h.earliest = when
		}
		if when.After(h.latest) {
			h.latest = when
		}
		parents, err := w.parents(c)
		if err != nil {
			return nil, err
		}
		for _, p := range parents {
			if !seen[p.Hash] {
				seen[p.Hash] = true
				stack = append(stack, p)
			}
		}
	}
	h.boundary = w.boundary
	h.identities = make([]string, 0, len(ids))
	for id := range ids {
		h.identities = append(h.identities, id)
	}
	slices.Sort(h.identities)
	h.lower, h.counts = make([]string, len(h.identities)), make([]int, len(h.identities))
	for i, id := range h.identities {
		h.lower[i], h.counts[i] = strings.ToLower(id), ids[id]
	}
	return h, nil
}

// authors returns the indexes of the identities containing value,
// case-insensitively.
func (h *history) authors(value string) []int {
	v := strings.ToLower(value)
	var out []int
	for i, id := range h.lower {
		if strings.Contains(id, v) {
			out = append(out, i)
		}
	}
	return out
}
