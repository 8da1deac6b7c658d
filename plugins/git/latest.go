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
	tagged := map[plumbing.Hash][]string{}
	tags, err := s.repo.Tags()
	if err != nil {
		g.Note = fmt.Sprintf("cannot list tags: %v", err)
		return
	}
	_ = tags.ForEach(func(ref *plumbing.Reference) error {
		// The short name as ReferenceName.Short gives a tag's, without a
		// scanf per rule.
		h := s.peel(ref.Hash())
		tagged[h] = append(tagged[h], strings.TrimPrefix(ref.Name().String(), "refs/tags/"))
		return nil
	})
	if len(tagged) == 0 {
		g.Note = "the repository has no tags"
		return
	}
	head, err := s.repo.Head()
	if err != nil {
		g.Note = fmt.Sprintf("no HEAD: %v", err)
		return
	}
	iter, err := s.repo.Log(&gogit.LogOptions{From: head.Hash(), Order: gogit.LogOrderCommitterTime})
	if err != nil {
		g.Note = fmt.Sprintf("cannot read the history: %v", err)
		return
	}
	defer iter.Close()
	var found *object.Commit
	read := 0
	err = iter.ForEach(func(c *object.Commit) error {
		if _, ok := tagged[c.Hash]; ok {
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
		name := slices.MaxFunc(tagged[found.Hash], compareTags)
		g.Known, g.Canonical, g.ID, g.Time = true, []string{name}, found.Hash.String(), found.Committer.When
		g.Note = fmt.Sprintf("%q is %s, the latest tag in the history of HEAD", v, name)
	case err != nil && !errors.Is(err, errFound):
		g.Note = fmt.Sprintf("cannot read the history: %v", err)
	case read >= maxLatestWalk:
		g.Note = fmt.Sprintf("no tag in the %d newest commits of HEAD", maxLatestWalk)
	default:
		g.Note = "no tag in the history of HEAD (a shallow clone may have cut it)"
	}
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
