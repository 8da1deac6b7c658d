package file

import (
	"cmp"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The documentation of a directory (format markdown): its documentation
// files, found by walking it, as the include globs say, bounded in files
// and bytes. Hidden directories (.git), dependencies (node_modules,
// vendor) and test fixtures (testdata) are not walked.

// docExtensions are the extensions of documentation files.
var docExtensions = map[string]bool{".md": true, ".markdown": true, ".mdx": true, ".rst": true, ".adoc": true, ".asciidoc": true, ".txt": true}

// docNames are documentation files without an extension, by their name's start.
var docNames = []string{"README", "CONTRIBUTING", "INSTALL", "USAGE", "GUIDE"}

// skippedDirs are never walked for documentation.
var skippedDirs = map[string]bool{"node_modules": true, "vendor": true, "testdata": true, "third_party": true}

// maxDocDepth bounds how deep the walk goes below the directory.
const maxDocDepth = 8

// isDoc reports whether the file named name is documentation.
func isDoc(name string) bool {
	if docExtensions[strings.ToLower(filepath.Ext(name))] {
		return true
	}
	if filepath.Ext(name) != "" {
		return false
	}
	upper := strings.ToUpper(name)
	for _, n := range docNames {
		if strings.HasPrefix(upper, n) {
			return true
		}
	}
	return false
}

// maxDocCandidates bounds the documentation files a walk considers.
const maxDocCandidates = 20000

// docInputs lists the documentation files under cfg.Path that match
// cfg.Include (every one when it is empty), the shallowest first (a
// directory's own guide before its release notes), then in lexical order,
// until cfg.MaxFiles files or cfg.MaxBytes bytes. None is not an error: the
// source then has no documentation to return.
func docInputs(cfg config) ([]input, error) {
	root := cfg.Path
	type candidate struct {
		path, rel string
		depth     int
		size      int64
	}
	var found []candidate
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable corner of the tree is not documentation
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		depth := strings.Count(rel, "/")
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || skippedDirs[d.Name()] || depth >= maxDocDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !isDoc(d.Name()) || !included(cfg.Include, rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		found = append(found, candidate{path: p, rel: rel, depth: depth, size: min(info.Size(), maxDocFile)})
		if len(found) >= maxDocCandidates {
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(found, func(a, b candidate) int { return cmp.Compare(a.depth, b.depth) }) // lexical within a depth
	var (
		out   []input
		total int64
	)
	for _, c := range found {
		if len(out) >= cfg.MaxFiles || total+c.size > int64(cfg.MaxBytes) {
			break
		}
		total += c.size
		out = append(out, input{name: c.path, shown: c.rel, format: FormatMarkdown, open: func() (io.ReadCloser, error) { return openPath(c.path) }})
	}
	return out, nil
}

// included reports whether rel (slash-separated) matches one of globs;
// no globs include everything.
func included(globs []string, rel string) bool {
	if len(globs) == 0 {
		return true
	}
	for _, g := range globs {
		if globMatch(strings.Split(g, "/"), strings.Split(rel, "/")) {
			return true
		}
	}
	return false
}

// globMatch matches path segments against pattern segments, "**" standing
// for any number of segments (none included).
func globMatch(pattern, segs []string) bool {
	for len(pattern) > 0 {
		if pattern[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if globMatch(pattern[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pattern[0], segs[0]); !ok {
			return false
		}
		pattern, segs = pattern[1:], segs[1:]
	}
	return len(segs) == 0
}
