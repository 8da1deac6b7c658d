package sdk

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// Bounds of a LineStats: distinct files and directories counted by name
// (the rest are counted as other), and the largest commits kept.
const (
	MaxLinePaths   = 20000
	MaxLargest     = 10
	lineStatsDepth = 2 // directory components a directory tally keeps
)

// LineStats tallies the line statistics of commit records (the fields
// additions, deletions and paths a source sets under with_stats) over a
// whole set of records: totals, the commits touching each file and
// directory, and the largest commits. Its JSON is part of Evidence.
type LineStats struct {
	// Commits counts the records that carry line statistics; Without
	// the commit records that do not (a source that cannot compute them).
	// Merges counts the merge commits, which carry none (as git log
	// --numstat shows none for them).
	Commits int `json:"commits"`
	Without int `json:"without,omitempty"`
	Merges  int `json:"merges,omitempty"`
	// Clipped counts the commits that changed more files than their
	// paths field lists (a source bounds it): files beyond it are not
	// in Files or Dirs.
	Clipped   int   `json:"clipped,omitempty"`
	Additions int64 `json:"additions"`
	Deletions int64 `json:"deletions"`
	// Files counts the commits touching each path, Dirs each directory
	// (a path's first two directory components; "." is the top level).
	// Each keeps at most MaxLinePaths names; OtherFiles and OtherDirs
	// count the touches of the rest.
	Files      map[string]int `json:"files,omitempty"`
	OtherFiles int            `json:"other_files,omitempty"`
	Dirs       map[string]int `json:"dirs,omitempty"`
	OtherDirs  int            `json:"other_dirs,omitempty"`
	// Largest are the MaxLargest commits with the most lines changed,
	// largest first.
	Largest []CommitSize `json:"largest,omitempty"`
}

// CommitSize is one commit's size in lines.
type CommitSize struct {
	ID        string `json:"id"`
	Short     string `json:"short_id,omitempty"`
	Title     string `json:"title,omitempty"`
	Author    string `json:"author,omitempty"`
	Additions int64  `json:"additions"`
	Deletions int64  `json:"deletions"`
}

// Lines is the commit's additions and deletions.
func (c CommitSize) Lines() int64 { return c.Additions + c.Deletions }

// Add counts rec: its statistics when it carries them, else as a commit
// without them (records of other kinds are not counted).
func (s *LineStats) Add(rec Record) {
	add, okA := fieldInt(rec.Fields["additions"])
	del, okD := fieldInt(rec.Fields["deletions"])
	if !okA || !okD {
		if parents, _ := fieldInt(rec.Fields["parents"]); parents > 1 {
			s.Merges++
		} else if rec.Kind == KindCommit {
			s.Without++
		}
		return
	}
	s.Commits++
	s.Additions += add
	s.Deletions += del
	var dirs []string // this commit's directories, counted once each
	paths := fieldStrings(rec.Fields["paths"])
	if files, ok := fieldInt(rec.Fields["files"]); ok && files > int64(len(paths)) {
		s.Clipped++
	}
	for _, p := range paths {
		if _, to, ok := strings.Cut(p, " => "); ok {
			p = to // a rename counts for the file's new name, as git log --name-only
		}
		bumpName(&s.Files, &s.OtherFiles, p, 1)
		if d := dirOf(p); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
			bumpName(&s.Dirs, &s.OtherDirs, d, 1)
		}
	}
	short, _ := rec.Fields["short_id"].(string)
	s.keepLargest(CommitSize{ID: rec.ID, Short: short, Title: rec.Title, Author: rec.Author, Additions: add, Deletions: del})
}

// Merge adds the counts of o.
func (s *LineStats) Merge(o *LineStats) {
	if o == nil {
		return
	}
	s.Commits += o.Commits
	s.Without += o.Without
	s.Merges += o.Merges
	s.Clipped += o.Clipped
	s.Additions += o.Additions
	s.Deletions += o.Deletions
	s.OtherFiles += o.OtherFiles
	s.OtherDirs += o.OtherDirs
	mergeNames(&s.Files, &s.OtherFiles, o.Files)
	mergeNames(&s.Dirs, &s.OtherDirs, o.Dirs)
	for _, c := range o.Largest {
		s.keepLargest(c)
	}
}

// keepLargest keeps c among the MaxLargest largest commits, each ID once.
func (s *LineStats) keepLargest(c CommitSize) {
	if n := len(s.Largest); n >= MaxLargest {
		last := s.Largest[n-1]
		if c.Lines() < last.Lines() || c.Lines() == last.Lines() && c.ID >= last.ID {
			return // the common case: after every commit kept
		}
	}
	if slices.ContainsFunc(s.Largest, func(o CommitSize) bool { return o.ID == c.ID && c.ID != "" }) {
		return
	}
	s.Largest = append(s.Largest, c)
	slices.SortStableFunc(s.Largest, func(a, b CommitSize) int {
		return cmp.Or(cmp.Compare(b.Lines(), a.Lines()), cmp.Compare(a.ID, b.ID))
	})
	if len(s.Largest) > MaxLargest {
		s.Largest = s.Largest[:MaxLargest]
	}
}

// PathCount is a file or directory and the commits touching it.
type PathCount struct {
	Path    string
	Commits int
}

// Top returns the n entries of m with the most commits, then by name.
func Top(m map[string]int, n int) []PathCount {
	out := make([]PathCount, 0, len(m))
	for p, c := range m {
		out = append(out, PathCount{p, c})
	}
	slices.SortFunc(out, func(a, b PathCount) int {
		return cmp.Or(cmp.Compare(b.Commits, a.Commits), cmp.Compare(a.Path, b.Path))
	})
	return out[:min(n, len(out))]
}

// dirOf is the directory a path is counted under: its first two
// directory components ("internal/command" of
// "internal/command/views/x.go"), "." for a top-level file.
func dirOf(p string) string {
	i := strings.IndexByte(p, '/')
	if i < 0 {
		return "."
	}
	j := strings.IndexByte(p[i+1:], '/')
	if j < 0 {
		return p[:i]
	}
	return p[:i+1+j]
}

// mergeNames adds the counts of o to *m: in name order when the bound
// may be reached, so which names are counted does not depend on map order.
func mergeNames(m *map[string]int, other *int, o map[string]int) {
	if len(*m)+len(o) <= MaxLinePaths {
		for name, n := range o {
			bumpName(m, other, name, n)
		}
		return
	}
	for _, name := range slices.Sorted(maps.Keys(o)) {
		bumpName(m, other, name, o[name])
	}
}

// bumpName adds n to m[name], or to *other once m holds MaxLinePaths names.
func bumpName(m *map[string]int, other *int, name string, n int) {
	if name == "" {
		return
	}
	if *m == nil {
		*m = map[string]int{}
	}
	if _, ok := (*m)[name]; !ok && len(*m) >= MaxLinePaths {
		*other += n
		return
	}
	(*m)[name] += n
}

// fieldInt reads a count from a record field, as a plugin set it or as
// JSON decoded it.
func fieldInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		return int64(n), true
	case int32:
		return int64(n), true
	}
	return 0, false
}

// fieldStrings reads a list of strings from a record field.
func fieldStrings(v any) []string {
	switch l := v.(type) {
	case []string:
		return l
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
