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
}

type pathKey struct {
	tree  plumbing.Hash
	path  int
	depth int
}

func newPathIndex(store storer.EncodedObjectStorer, paths [][]string) *pathIndex {
	return &pathIndex{store: store, paths: paths, cache: make(map[pathKey]plumbing.Hash)}
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
			tree, err := object.GetTree(p.store, h)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			next = plumbing.ZeroHash
			if e := entry(tree, name); e != nil && (depth == len(parts)-1 || e.Mode == filemode.Dir) {
				next = e.Hash
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
