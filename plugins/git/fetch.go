package git

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/nous-dev/nous/sdk"
)

// checkEvery is how many commits the walk visits between context checks.
const checkEvery = 256

// Fetch walks the history of the requested revisions, newest first, and
// emits the commits that match, stopping at the first commit older than
// Since. Fetches run in parallel, each on a repository handle of its own.
func (s *Source) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	c, end, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer end()
	return c.fetch(ctx, req, emit)
}

// fetch is Fetch on the call's handle.
func (s *call) fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	q, err := newQuery(req, s.cfg)
	if err != nil {
		return err
	}
	shallow, err := s.shallowSet()
	if err != nil {
		return err
	}
	w := newWalker(s.commit, shallow)
	names, err := s.seed(w, q)
	if errors.Is(err, errNoCommits) {
		return nil
	}
	if err != nil {
		return err
	}
	var paths *pathIndex
	if len(q.paths) > 0 {
		paths = newPathIndex(s.repo.Storer, q.paths, s.entries)
	}
	out := s.newEmitter(ctx, q, shallow, emit)
	defer out.close()
	add := func(n *node) (bool, error) { return out.add(n.c, names[lowestBit(n.reach&^n.hidden)]) }
	// past is set at the first shown commit older than since: nothing
	// older is judged, the walk only goes on while commits are held.
	past := false
	for visited := 0; ; visited++ {
		if visited%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return sdk.Errorf(sdk.KindDeadline, "git: walk stopped after %d commits: %w", visited, err)
			}
		}
		n := w.next()
		if n == nil || (past && len(w.held) == 0) {
			if done, err := w.release(true, add); err != nil || done {
				return err
			}
			return out.flush()
		}
		if done, err := w.release(false, add); err != nil || done {
			return err
		}
		c := n.c
		if !n.shown() {
			// Excluded history: every parent is excluded too.
			ps, err := w.parents(c)
			if err != nil {
				return err
			}
			for _, p := range ps {
				w.push(p, n.reach, n.hidden)
			}
			continue
		}
		when := c.Committer.When
		// Time order: every commit still queued is older too.
		past = past || (!n.judged && !q.since.IsZero() && when.Before(q.since))
		if past && len(w.held) == 0 {
			return out.flush()
		}
		touches, err := follow(w, paths, n)
		if err != nil {
			return err
		}
		if n.judged || past {
			continue
		}
		n.judged = true
		if !touches || (!q.until.IsZero() && !when.Before(q.until)) ||
			!q.matchesAuthor(c.Author.Name, c.Author.Email) || !q.matchesMessage(c.Message) {
			continue
		}
		w.hold(n)
		if done, err := w.release(false, add); err != nil || done {
			return err
		}
	}
}

// seed queues the tips and excluded ends of the requested ranges and
// returns the name each range's records carry in their "ref" field.
func (s *call) seed(w *walker, q query) ([]string, error) {
	ranges := q.revisions
	if len(ranges) == 0 {
		ranges = []revRange{{tip: q.ref}}
	}
	names := make([]string, len(ranges))
	for i, r := range ranges {
		tip, name, err := s.resolve(s.headOr(r.tip, q.ref))
		if err != nil {
			return nil, err
		}
		names[i] = name
		c, err := w.load(tip)
		if err != nil {
			return nil, fmt.Errorf("git: reading commit %s: %w", tip, err)
		}
		w.push(c, 1<<i, 0)
		if r.exclude == "" {
			continue
		}
		ex, _, err := s.resolve(s.headOr(r.exclude, q.ref))
		if errors.Is(err, errNoCommits) {
			continue
		}
		if err != nil {
			return nil, err
		}
		c, err = w.load(ex)
		if err != nil {
			return nil, fmt.Errorf("git: reading commit %s: %w", ex, err)
		}
		w.push(c, 0, 1<<i)
	}
	return names, nil
}

// headOr maps an empty end or HEAD of a range to the walk's HEAD.
func (s *call) headOr(name, head string) string {
	if name == "" || name == "HEAD" {
		return head
	}
	return name
}

func lowestBit(m uint64) int {
	for i := 0; i < 64; i++ {
		if m&(1<<i) != 0 {
			return i
		}
	}
	return 0
}

// follow queues the parents of n the walk continues through and reports
// whether n touches the paths. Without paths every commit touches and every
// parent is followed. With paths it simplifies history like `git log --
// path`: a commit whose paths equal a parent's does not touch them, and
// the walk follows that parent only.
func follow(w *walker, paths *pathIndex, n *node) (bool, error) {
	c := n.c
	parents, err := w.parents(c)
	if err != nil {
		return false, err
	}
	if paths == nil {
		for _, p := range parents {
			w.push(p, n.reach, n.hidden)
		}
		return true, nil
	}
	mine, err := paths.hashes(c.TreeHash)
	if err != nil {
		return false, fmt.Errorf("git: reading tree of %s: %w", c.Hash, err)
	}
	if len(parents) == 0 {
		return anyPresent(mine), nil
	}
	for _, p := range parents {
		theirs, err := paths.hashes(p.TreeHash)
		if err != nil {
			return false, fmt.Errorf("git: reading tree of %s: %w", p.Hash, err)
		}
		if sameHashes(mine, theirs) {
			w.push(p, n.reach, n.hidden)
			return false, nil
		}
	}
	for _, p := range parents {
		w.push(p, n.reach, n.hidden)
	}
	return true, nil
}

// errNoCommits means HEAD points at a branch with no commits yet.
var errNoCommits = errors.New("no commits yet")

// resolve turns ref into the commit to start from and the name recorded
// in each record's "ref" field.
func (s *call) resolve(ref string) (plumbing.Hash, string, error) {
	if ref == "HEAD" {
		head, err := s.repo.Head()
		if errors.Is(err, plumbing.ErrReferenceNotFound) {
			return plumbing.ZeroHash, "", errNoCommits
		}
		if err != nil {
			return plumbing.ZeroHash, "", fmt.Errorf("git: reading HEAD of %s: %w", s.cfg.Path, err)
		}
		name := "HEAD"
		if head.Name().IsBranch() {
			name = head.Name().Short()
		}
		return head.Hash(), name, nil
	}
	h, err := s.repo.ResolveRevision(plumbing.Revision(ref))
	if err != nil {
		return plumbing.ZeroHash, "", sdk.Errorf(sdk.KindNotFound, "git: unknown ref %q in repository %s", ref, s.cfg.Path)
	}
	// ResolveRevision peels tags; anything else must name a commit.
	if _, err := object.GetCommit(s.repo.Storer, *h); err != nil {
		return plumbing.ZeroHash, "", sdk.Errorf(sdk.KindNotFound, "git: ref %q in repository %s names no commit: %v", ref, s.cfg.Path, err)
	}
	return *h, ref, nil
}

// shallowSet returns the commits a shallow clone cut the parents of; nil
// for a complete repository.
func (s *call) shallowSet() (map[plumbing.Hash]bool, error) {
	hs, err := s.repo.Storer.Shallow()
	if err != nil {
		return nil, fmt.Errorf("git: reading the shallow list of %s: %w", s.cfg.Path, err)
	}
	if len(hs) == 0 {
		return nil, nil
	}
	set := make(map[plumbing.Hash]bool, len(hs))
	for _, h := range hs {
		set[h] = true
	}
	return set, nil
}
