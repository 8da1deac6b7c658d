package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Digest is the sha256, hex, over the rules files' contents and their
// names relative to the directory that holds them all: the same rules
// copied elsewhere, or loaded from elsewhere, have the same digest.
func (r *Ruleset) Digest() string {
	files := r.Files()
	rel := relativeToRoot(slices.Collect(maps.Keys(files)))
	byRel := make(map[string]string, len(rel))
	for name, rn := range rel {
		byRel[rn] = name
	}
	h := sha256.New()
	for _, rn := range slices.Sorted(maps.Keys(byRel)) {
		// The name is part of the digest: a file renamed is another ruleset.
		h.Write([]byte(filepath.ToSlash(rn)))
		h.Write([]byte{0})
		if f := files[byRel[rn]]; f != nil {
			h.Write(f.Bytes)
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// relativeToRoot maps every name to its path relative to the deepest
// directory that holds them all.
func relativeToRoot(names []string) map[string]string {
	out := make(map[string]string, len(names))
	if len(names) == 0 {
		return out
	}
	root := filepath.Dir(names[0])
	for _, name := range names[1:] {
		for !within(root, name) {
			up := filepath.Dir(root)
			if up == root {
				break
			}
			root = up
		}
	}
	for _, name := range names {
		r, err := filepath.Rel(root, name)
		if err != nil {
			r = name
		}
		out[name] = r
	}
	return out
}

// within reports whether name is under dir.
func within(dir, name string) bool {
	r, err := filepath.Rel(dir, name)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}
