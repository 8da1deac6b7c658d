package git

import (
	"bytes"
	"context"
	"io"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// binaryProbe is how much of a blob is searched for a NUL byte, as git does.
const binaryProbe = 8000

// fileStat is one file a commit changed, with its line counts.
type fileStat struct {
	name                 string
	additions, deletions int
}

// change is a file whose blob differs between two trees; a zero hash is a
// file that does not exist on that side.
type change struct {
	from, to         string // paths
	fromHash, toHash plumbing.Hash
}

// commitStats counts the files, added and deleted lines of c against its
// first parent (or the empty tree when root: a root commit or a shallow
// clone's boundary), like `git show --numstat`. It walks
// only subtrees whose hashes differ, and pairs a deleted and an added file
// with identical content as a rename ("old => new"), which git reports
// as 0 0; renames with edits count as a deletion and an addition.
func commitStats(ctx context.Context, store storer.EncodedObjectStorer, c *object.Commit, root bool) ([]fileStat, error) {
	var parentTree plumbing.Hash
	if !root && len(c.ParentHashes) > 0 {
		p, err := object.GetCommit(store, c.ParentHashes[0])
		if err != nil {
			return nil, err
		}
		parentTree = p.TreeHash
	}
	var changes []change
	if err := diffTrees(store, parentTree, c.TreeHash, "", &changes); err != nil {
		return nil, err
	}
	changes = pairRenames(changes)
	stats := make([]fileStat, 0, len(changes))
	for _, ch := range changes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st, err := lineStats(store, ch)
		if err != nil {
			return nil, err
		}
		stats = append(stats, st)
	}
	return sortStats(stats), nil
}

// sortStats orders stats by name, as both ways of computing them agree.
func sortStats(stats []fileStat) []fileStat {
	sort.Slice(stats, func(i, j int) bool { return stats[i].name < stats[j].name })
	return stats
}

// diffTrees appends the files that differ between the trees from and to
// (either may be zero: the empty tree).
func diffTrees(store storer.EncodedObjectStorer, from, to plumbing.Hash, prefix string, out *[]change) error {
	if from == to {
		return nil
	}
	fromEntries, err := entries(store, from)
	if err != nil {
		return err
	}
	toEntries, err := entries(store, to)
	if err != nil {
		return err
	}
	old := make(map[string]object.TreeEntry, len(fromEntries))
	for _, e := range fromEntries {
		old[e.Name] = e
	}
	for _, e := range toEntries {
		p := prefix + e.Name
		o, existed := old[e.Name]
		delete(old, e.Name)
		switch {
		case existed && o.Hash == e.Hash && isDir(o) == isDir(e):
		case existed && isDir(o) && isDir(e):
			if err := diffTrees(store, o.Hash, e.Hash, p+"/", out); err != nil {
				return err
			}
		default:
			if existed {
				if err := side(store, o, p, true, out); err != nil {
					return err
				}
			}
			if err := side(store, e, p, false, out); err != nil {
				return err
			}
		}
	}
	for _, e := range fromEntries {
		if _, gone := old[e.Name]; gone {
			if err := side(store, e, prefix+e.Name, true, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// side records entry e at path p as deleted (or added), every file below
// it when it is a directory. Submodules are skipped, as git's stats do.
func side(store storer.EncodedObjectStorer, e object.TreeEntry, p string, deleted bool, out *[]change) error {
	switch {
	case e.Mode == filemode.Submodule:
		return nil
	case isDir(e):
		if deleted {
			return diffTrees(store, e.Hash, plumbing.ZeroHash, p+"/", out)
		}
		return diffTrees(store, plumbing.ZeroHash, e.Hash, p+"/", out)
	case deleted:
		*out = mergeSide(*out, change{from: p, fromHash: e.Hash})
	default:
		*out = mergeSide(*out, change{to: p, toHash: e.Hash})
	}
	return nil
}

// mergeSide joins a deletion and an addition of the same path (a file
// whose mode changed between file and symlink) into one modification.
func mergeSide(out []change, c change) []change {
	if n := len(out); n > 0 {
		last := &out[n-1]
		if c.to != "" && last.from == c.to && last.to == "" {
			last.to, last.toHash = c.to, c.toHash
			return out
		}
	}
	return append(out, c)
}

// pairRenames turns a deleted and an added file with the same blob into
// one rename.
func pairRenames(changes []change) []change {
	deleted := map[plumbing.Hash][]int{}
	for i, c := range changes {
		if c.to == "" {
			deleted[c.fromHash] = append(deleted[c.fromHash], i)
		}
	}
	if len(deleted) == 0 {
		return changes
	}
	drop := map[int]bool{}
	for i := range changes {
		c := &changes[i]
		if c.from != "" || len(deleted[c.toHash]) == 0 {
			continue
		}
		j := deleted[c.toHash][0]
		deleted[c.toHash] = deleted[c.toHash][1:]
		c.from, c.fromHash = changes[j].from, changes[j].fromHash
		drop[j] = true
	}
	out := changes[:0]
	for i, c := range changes {
		if !drop[i] {
			out = append(out, c)
		}
	}
	return out
}

// lineStats counts the lines ch adds and deletes; binary files count 0.
func lineStats(store storer.EncodedObjectStorer, ch change) (fileStat, error) {
	st := fileStat{name: ch.to}
	switch {
	case ch.to == "":
		st.name = ch.from
	case ch.from != "" && ch.from != ch.to:
		st.name = ch.from + " => " + ch.to
	}
	if ch.fromHash == ch.toHash {
		return st, nil // a pure rename
	}
	before, err := blob(store, ch.fromHash)
	if err != nil {
		return st, err
	}
	after, err := blob(store, ch.toHash)
	if err != nil {
		return st, err
	}
	if binary(before) || binary(after) {
		return st, nil
	}
	switch {
	case len(before) == 0:
		st.additions = lines(string(after))
	case len(after) == 0:
		st.deletions = lines(string(before))
	default:
		for _, d := range diff.Do(string(before), string(after)) {
			switch d.Type {
			case diffmatchpatch.DiffInsert:
				st.additions += lines(d.Text)
			case diffmatchpatch.DiffDelete:
				st.deletions += lines(d.Text)
			}
		}
	}
	return st, nil
}

// entries returns the entries of tree h, none for the zero hash.
func entries(store storer.EncodedObjectStorer, h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := object.GetTree(store, h)
	if err != nil {
		return nil, err
	}
	return t.Entries, nil
}

// blob returns the content of blob h, empty for the zero hash.
func blob(store storer.EncodedObjectStorer, h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	b, err := object.GetBlob(store, h)
	if err != nil {
		return nil, err
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

func isDir(e object.TreeEntry) bool { return e.Mode == filemode.Dir }

func binary(b []byte) bool { return bytes.IndexByte(b[:min(len(b), binaryProbe)], 0) >= 0 }

// lines counts lines, a last line without a newline included.
func lines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	return n
}
