package git

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/nous-dev/nous/sdk"
	"golang.org/x/mod/semver"
)

// maxLatestWalk bounds the commits read from HEAD looking for the latest tag.
const maxLatestWalk = 200_000

// latestRelease matches what a question calls the newest tag: "last
// release", "latest tag", "the most recent version".
var latestRelease = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:the\s+)?(?:last|latest|most\s+recent|previous)\s+(?:release|tag|version)$`)
})

var errFound = errors.New("found")

// groundLatestTag finds the tag "the last release" means, as `git describe
// --tags` does: the first tagged commit in HEAD's history, newest first
// (of several tags on it, the greatest version: v1.1.0 over v1.1.0-rc1).
func (s *call) groundLatestTag(g *sdk.GroundedTerm, v string) {
	head, err := s.repo.Head()
	if err != nil {
		g.Note = fmt.Sprintf("no HEAD: %v", err)
		return
	}
	name, c, why := s.firstTagged(head.Hash(), false)
	switch {
	case c != nil:
		g.Known, g.Canonical, g.ID, g.Time = true, []string{name}, c.Hash.String(), c.Committer.When
		g.Note = fmt.Sprintf("%q is %s, the latest tag in the history of HEAD", v, name)
	case why == "":
		g.Note = "no tag in the history of HEAD (a shallow clone may have cut it)"
	default:
		g.Note = why
	}
}

// groundTagBefore finds the tag before ref (v without sdk.RefBefore), as
// `git describe --tags --abbrev=0 REF^` does: the first tagged commit in
// the history of ref's commit, that commit left out, so that "before
// v1.2.0..v1.2.0" is what release v1.2.0 brought. Before the first tag
// there is none: the canonical form is then empty, and the release's
// range its whole history.
func (s *call) groundTagBefore(g *sdk.GroundedTerm, v, ref string) {
	of := sdk.GroundedTerm{Kind: sdk.TermRef, Value: ref}
	s.groundRef(&of, ref)
	if !of.Known {
		g.Note = of.Note
		return
	}
	name, c, why := s.firstTagged(plumbing.NewHash(of.ID), true)
	switch {
	case c != nil:
		g.Known, g.Canonical, g.ID, g.Time = true, []string{name}, c.Hash.String(), c.Committer.When
		g.Note = fmt.Sprintf("%q is %s, the tag before %s", v, name, of.Canonical[0])
	case why == "":
		g.Known, g.Canonical = true, []string{""}
		g.Note = fmt.Sprintf("no tag before %s in its history: its release is all of it", of.Canonical[0])
		if shallow, err := s.shallowSet(); err != nil || len(shallow) > 0 {
			g.Note += " (a shallow clone may have cut an earlier one)"
		}
	default:
		g.Note = why
	}
}

// firstTagged walks the history of from, newest first, to the first
// tagged commit (from itself left out with skipFrom) and returns it with
// the greatest of its tag names. Without one, why says what stopped the
// walk, or is empty when the history holds no tagged commit.
func (s *call) firstTagged(from plumbing.Hash, skipFrom bool) (name string, found *object.Commit, why string) {
	tagged := map[plumbing.Hash][]string{}
	tags, err := s.repo.Tags()
	if err != nil {
		return "", nil, fmt.Sprintf("cannot list tags: %v", err)
	}
	_ = tags.ForEach(func(ref *plumbing.Reference) error {
		// The short name as ReferenceName.Short gives a tag's, without a
		// scanf per rule.
		h := s.peel(ref.Hash())
		tagged[h] = append(tagged[h], strings.TrimPrefix(ref.Name().String(), "refs/tags/"))
		return nil
	})
	if len(tagged) == 0 {
		return "", nil, "the repository has no tags"
	}
	iter, err := s.repo.Log(&gogit.LogOptions{From: from, Order: gogit.LogOrderCommitterTime})
	if err != nil {
		return "", nil, fmt.Sprintf("cannot read the history: %v", err)
	}
	defer iter.Close()
	read := 0
	err = iter.ForEach(func(c *object.Commit) error {
		if _, ok := tagged[c.Hash]; ok && !(skipFrom && c.Hash == from) {
			found = c
			return errFound
		}
		if read++; read >= maxLatestWalk {
			return storer.ErrStop
		}
		return nil
	})
	switch {
	case found != nil:
		return slices.MaxFunc(tagged[found.Hash], compareTags), found, ""
	case err != nil && !errors.Is(err, errFound):
		return "", nil, fmt.Sprintf("cannot read the history: %v", err)
	case read >= maxLatestWalk:
		return "", nil, fmt.Sprintf("no tag in the %d newest commits", maxLatestWalk)
	}
	return "", nil, ""
}

// peel returns the target of the tag object h (a commit, as release tags
// are), or h itself when h is not a tag object: a lightweight tag's
// commit. What h is never changes, so a warm plugin peels each tag once:
// a commit is known from the commit cache, a tag object's target is
// kept. An object that cannot be read is not kept: it may arrive later.
func (s *call) peel(h plumbing.Hash) plumbing.Hash {
	if target, ok := s.peeled.get(h); ok {
		return target
	}
	if _, ok := s.commits.get(h); ok {
		return h
	}
	if tag, err := object.GetTag(s.repo.Storer, h); err == nil {
		s.peeled.put(h, tag.Target)
		return tag.Target
	}
	_, _ = s.commit(h) // a commit is kept for the next time
	return h
}

// compareTags orders tag names as versions where both are (a release
// after its release candidates), else as strings.
func compareTags(a, b string) int {
	va, vb := "v"+strings.TrimPrefix(a, "v"), "v"+strings.TrimPrefix(b, "v")
	if semver.IsValid(va) && semver.IsValid(vb) {
		if c := semver.Compare(va, vb); c != 0 {
			return c
		}
	}
	return strings.Compare(a, b)
}

// latestTags is the n greatest tag names, as versions where they are:
// what a question naming a tag no one made probably meant.
func (s *call) latestTags(n int) []string {
	tags, err := s.repo.Tags()
	if err != nil {
		return nil
	}
	var names []string
	_ = tags.ForEach(func(ref *plumbing.Reference) error {
		names = append(names, strings.TrimPrefix(ref.Name().String(), "refs/tags/"))
		return nil
	})
	slices.SortFunc(names, func(a, b string) int { return compareTags(b, a) })
	return names[:min(n, len(names))]
}
