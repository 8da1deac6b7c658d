package git

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// The commit cache's bound: a long-running plugin (nous serve) keeps the
// commits its walks decoded, so the next question's walk reads none of
// them again. 32 MiB hold the whole history of a 35,000-commit repository.
const maxCachedCommitBytes = 32 << 20

// The tree entry cache's bound: the path filter's lookups, kept across
// fetches.
const maxCachedEntryBytes = 8 << 20

// entryKey is a name looked up in a tree.
type entryKey struct {
	tree plumbing.Hash
	name string
}

// treeEntry is what the path filter needs of a tree's entry: its hash
// (zero when the tree has no such entry) and whether it is a directory.
type treeEntry struct {
	hash plumbing.Hash
	dir  bool
}

// entryCache caches tree entries by tree and name: a tree never changes
// under its name. Like commitCache it holds one configuration's
// repository.
type entryCache = boundedCache[entryKey, treeEntry]

func newEntryCache() *entryCache {
	return newBoundedCache(maxCachedEntryBytes, func(k entryKey, _ treeEntry) int { return 160 + len(k.name) })
}

// maxPeeledTags bounds the cache of annotated tags' targets, an entry
// costing about 128 bytes.
const maxPeeledTags = 100_000

// peelCache caches annotated tags' targets by the tag object's name.
type peelCache = boundedCache[plumbing.Hash, plumbing.Hash]

func newPeelCache() *peelCache {
	return newBoundedCache(maxPeeledTags*128, func(plumbing.Hash, plumbing.Hash) int { return 128 })
}

// commitCache caches decoded commits by name: a commit never changes under
// its name. It holds one configuration's repository: Configure empties it,
// so that a commit missing from the repository is never found here.
type commitCache = boundedCache[plumbing.Hash, *object.Commit]

func newCommitCache() *commitCache {
	return newBoundedCache(maxCachedCommitBytes, func(_ plumbing.Hash, c *object.Commit) int { return commitSize(c) })
}

// commitSize estimates the memory a decoded commit holds: the struct, its
// strings and parents, and the cache's entry.
func commitSize(c *object.Commit) int {
	return 512 + len(c.Message) + len(c.Encoding) +
		len(c.Author.Name) + len(c.Author.Email) + len(c.Committer.Name) + len(c.Committer.Email) +
		len(c.ParentHashes)*len(plumbing.ZeroHash)
}

// commit returns the commit h, from the cache or read and decoded on the
// call's handle. The commit is decoded without a storage: it outlives the
// handle, so nothing may read through it (its Tree, Parents or Stats),
// and without its signature or merged tag, so it cannot be encoded again.
func (s *call) commit(h plumbing.Hash) (*object.Commit, error) {
	if c, ok := s.commits.get(h); ok {
		return c, nil
	}
	o, err := s.repo.Storer.EncodedObject(plumbing.CommitObject, h)
	if err != nil {
		return nil, err
	}
	c, err := object.DecodeCommit(nil, o)
	if err != nil {
		return nil, err
	}
	// Signatures are most of a signed commit and nothing reads them: the
	// cache holds more commits without them.
	c.PGPSignature, c.MergeTag = "", ""
	s.commits.put(h, c)
	return c, nil
}
