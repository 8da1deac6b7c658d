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

// Fetch walks the history from the requested ref, newest first, and emits
// the commits that match, stopping at the first commit older than Since.
func (s *Source) Fetch(ctx context.Context, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.openErr != nil {
		return s.openErr
	}
	q, err := newQuery(req, s.cfg)
	if err != nil {
		return err
	}
	start, refName, err := s.resolve(q.ref)
	if errors.Is(err, errNoCommits) {
		return nil
	}
	if err != nil {
		return err
	}
	w := newWalker(s.repo.Storer)
	first, err := w.load(start)
	if err != nil {
		return fmt.Errorf("git: reading commit %s: %w", start, err)
	}
	w.push(first)

	var paths *pathIndex
	if len(q.paths) > 0 {
		paths = newPathIndex(s.repo.Storer, q.paths)
	}
	emitted := 0
	for visited := 0; ; visited++ {
		if visited%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return sdk.Errorf(sdk.KindDeadline, "git: walk stopped after %d commits: %w", visited, err)
			}
		}
		c := w.next()
		if c == nil {
			return nil
		}
		when := c.Committer.When
		if !q.since.IsZero() && when.Before(q.since) {
			// Time order: every commit still queued is older too.
			return nil
		}
		touches, err := s.follow(w, paths, c)
		if err != nil {
			return err
		}
		if !touches || (!q.until.IsZero() && !when.Before(q.until)) ||
			!q.matchesAuthor(c.Author.Name, c.Author.Email) || !q.matchesMessage(c.Message) {
			continue
		}
		rec, err := s.record(ctx, c, refName, q.stats)
		if err != nil {
			return err
		}
		if err := emit(rec); err != nil {
			return err
		}
		if emitted++; q.limit > 0 && emitted >= q.limit {
			return nil
		}
	}
}

// follow queues the parents of c the walk continues through and reports
// whether c touches the paths. Without paths every commit touches and every
// parent is followed. With paths it simplifies history like `git log --
// path`: a commit whose paths equal a parent's does not touch them, and
// the walk follows that parent only.
func (s *Source) follow(w *walker, paths *pathIndex, c *object.Commit) (bool, error) {
	if paths == nil {
		for _, h := range c.ParentHashes {
			if w.queued(h) {
				continue
			}
			p, err := w.load(h)
			if err != nil {
				return false, fmt.Errorf("git: reading parent %s of %s: %w", h, c.Hash, err)
			}
			w.push(p)
		}
		return true, nil
	}
	mine, err := paths.hashes(c.TreeHash)
	if err != nil {
		return false, fmt.Errorf("git: reading tree of %s: %w", c.Hash, err)
	}
	if len(c.ParentHashes) == 0 {
		return anyPresent(mine), nil
	}
	parents := make([]*object.Commit, 0, len(c.ParentHashes))
	for _, h := range c.ParentHashes {
		p, err := w.load(h)
		if err != nil {
			return false, fmt.Errorf("git: reading parent %s of %s: %w", h, c.Hash, err)
		}
		theirs, err := paths.hashes(p.TreeHash)
		if err != nil {
			return false, fmt.Errorf("git: reading tree of %s: %w", p.Hash, err)
		}
		if sameHashes(mine, theirs) {
			w.push(p)
			return false, nil
		}
		parents = append(parents, p)
	}
	for _, p := range parents {
		w.push(p)
	}
	return true, nil
}

// errNoCommits means HEAD points at a branch with no commits yet.
var errNoCommits = errors.New("no commits yet")

// resolve turns ref into the commit to start from and the name recorded
// in each record's "ref" field.
func (s *Source) resolve(ref string) (plumbing.Hash, string, error) {
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
