package git

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// maxTreeEntries bounds the paths listed for base-name lookups.
const maxTreeEntries = 1_000_000

// tree lists every file and directory of one commit's tree, for grounding
// path terms; read once per tip and cached.
type tree struct {
	root  plumbing.Hash
	paths []treePath
	// cut says why the listing stopped early; empty when complete.
	cut string
}

type treePath struct {
	path string
	dir  bool
}

// readTree lists root's entries depth first, directories before their
// contents, within maxTreeEntries.
func readTree(store storer.EncodedObjectStorer, root plumbing.Hash) (*tree, error) {
	t := &tree{root: root}
	var walk func(h plumbing.Hash, prefix string) error
	walk = func(h plumbing.Hash, prefix string) error {
		tr, err := object.GetTree(store, h)
		if err != nil {
			return fmt.Errorf("git: reading tree %s: %w", h, err)
		}
		for _, e := range tr.Entries {
			if len(t.paths) >= maxTreeEntries {
				t.cut = fmt.Sprintf("the tree listing stopped at %d entries", maxTreeEntries)
				return nil
			}
			p := prefix + e.Name
			dir := e.Mode == filemode.Dir
			t.paths = append(t.paths, treePath{path: p, dir: dir})
			if dir {
				if err := walk(e.Hash, p+"/"); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(root, ""); err != nil {
		return nil, err
	}
	return t, nil
}

// exact reports whether p (cleaned) is a file or directory of the tree.
func (t *tree) exact(p string) (string, bool) {
	for _, e := range t.paths {
		if e.path == p {
			return e.path, true
		}
	}
	return "", false
}

// byBase returns the paths whose last component is name, in exactly that
// case.
func (t *tree) byBase(name string) []string {
	var out []string
	for _, e := range t.paths {
		if path.Base(e.path) == name {
			out = append(out, e.path)
		}
	}
	return out
}

// topFolded returns the top-level entries named name in any case.
func (t *tree) topFolded(name string) []string {
	var out []string
	for _, e := range t.paths {
		if !strings.Contains(e.path, "/") && strings.EqualFold(e.path, name) {
			out = append(out, e.path)
		}
	}
	return out
}
