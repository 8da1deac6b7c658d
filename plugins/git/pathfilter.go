package git

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// pathIndex tells whether commits touch a set of paths without diffing
// trees: it follows only the paths' components from a root tree down and
// compares the entry hashes it ends at. Results are cached per (tree,
// path, depth), so a subtree that did not change between commits is
// never decoded twice.
type pathIndex struct {
	store storer.EncodedObjectStorer
	paths [][]string // each path split into components
	cache map[pathKey]plumbing.Hash
	// entries keeps the entries looked up across fetches: a tree never
	// changes under its name.
	entries *entryCache
}

type pathKey struct {
	tree  plumbing.Hash
	path  int
	depth int
}

func newPathIndex(store storer.EncodedObjectStorer, paths [][]string, entries *entryCache) *pathIndex {
	return &pathIndex{store: store, paths: paths, cache: make(map[pathKey]plumbing.Hash), entries: entries}
}

// hashes returns the hash of every path's entry under root, the zero hash
// where a path does not exist.
func (p *pathIndex) hashes(root plumbing.Hash) ([]plumbing.Hash, error) {
	out := make([]plumbing.Hash, len(p.paths))
	for i := range p.paths {
		h, err := p.lookup(root, i)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// lookup walks path i's components from the tree root.
func (p *pathIndex) lookup(root plumbing.Hash, i int) (plumbing.Hash, error) {
	h := root
	parts := p.paths[i]
	for depth, name := range parts {
		key := pathKey{tree: h, path: i, depth: depth}
		next, ok := p.cache[key]
		if !ok {
			e, err := p.entry(h, name)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			next = plumbing.ZeroHash
			if depth == len(parts)-1 || e.dir {
				next = e.hash
			}
			p.cache[key] = next
		}
		if next.IsZero() {
			return next, nil
		}
		h = next
	}
	return h, nil
}

// entry looks name up in the tree h: from the cache, else decoding the
// tree.
func (p *pathIndex) entry(h plumbing.Hash, name string) (treeEntry, error) {
	key := entryKey{tree: h, name: name}
	if e, ok := p.entries.get(key); ok {
		return e, nil
	}
	tree, err := object.GetTree(p.store, h)
	if err != nil {
		return treeEntry{}, err
	}
	var e treeEntry
	if te := entry(tree, name); te != nil {
		e = treeEntry{hash: te.Hash, dir: te.Mode == filemode.Dir}
	}
	p.entries.put(key, e)
	return e, nil
}

// entry finds name among tree's entries.
func entry(tree *object.Tree, name string) *object.TreeEntry {
	for i := range tree.Entries {
		if tree.Entries[i].Name == name {
			return &tree.Entries[i]
		}
	}
	return nil
}

// sameHashes reports whether every path has the same entry in a and b.
func sameHashes(a, b []plumbing.Hash) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// anyPresent reports whether any path exists.
func anyPresent(hs []plumbing.Hash) bool {
	for _, h := range hs {
		if !h.IsZero() {
			return true
		}
	}
	return false
}
