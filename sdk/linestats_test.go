package sdk

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func statRec(id string, add, del int64, paths ...string) Record {
	return Record{ID: id, Kind: KindCommit, Title: "c " + id,
		Fields: map[string]any{"additions": add, "deletions": del, "paths": paths}}
}

func TestLineStatsAdd(t *testing.T) {
	var s LineStats
	s.Add(statRec("a", 10, 2, "cmd/nous/main.go", "README.md"))
	s.Add(statRec("b", 1, 100, "cmd/nous/ask.go", "old.go => engine/runner/new.go"))
	s.Add(Record{ID: "m", Kind: KindCommit}) // a merge: no statistics
	s.Add(Record{ID: "i", Kind: KindIssue})  // not a commit: not counted
	// As JSON decodes fields: float64 and []any.
	s.Add(Record{ID: "c", Kind: KindCommit, Fields: map[string]any{"additions": float64(5), "deletions": float64(0), "paths": []any{"README.md"}}})

	assert.Equal(t, 3, s.Commits)
	assert.Equal(t, 1, s.Without)
	assert.Equal(t, int64(16), s.Additions)
	assert.Equal(t, int64(102), s.Deletions)
	assert.Equal(t, map[string]int{"cmd/nous/main.go": 1, "README.md": 2, "cmd/nous/ask.go": 1, "engine/runner/new.go": 1}, s.Files)
	// A directory counts once per commit; a rename counts for its new name.
	assert.Equal(t, map[string]int{"cmd/nous": 2, ".": 2, "engine/runner": 1}, s.Dirs)
	require.Len(t, s.Largest, 3)
	assert.Equal(t, []string{"b", "a", "c"}, []string{s.Largest[0].ID, s.Largest[1].ID, s.Largest[2].ID})
	assert.Equal(t, []PathCount{{"README.md", 2}, {"cmd/nous/ask.go", 1}}, Top(s.Files, 2))
}

func TestLineStatsMergeMatchesAdd(t *testing.T) {
	var whole, a, b LineStats
	for i := range 30 {
		r := statRec(fmt.Sprint(i), int64(i), int64(30-i), fmt.Sprintf("d%d/f%d.go", i%3, i%7))
		whole.Add(r)
		if i%2 == 0 {
			a.Add(r)
		} else {
			b.Add(r)
		}
	}
	a.Merge(&b)
	a.Merge(nil)
	assert.Equal(t, whole.Commits, a.Commits)
	assert.Equal(t, whole.Additions, a.Additions)
	assert.Equal(t, whole.Files, a.Files)
	assert.Equal(t, whole.Dirs, a.Dirs)
	assert.Equal(t, whole.Largest, a.Largest)
	assert.Len(t, a.Largest, MaxLargest)
}

func TestLineStatsClipped(t *testing.T) {
	var s LineStats
	r := statRec("big", 500, 0, "a.go", "b.go")
	r.Fields["files"] = int64(300) // the source listed 2 of 300 paths
	s.Add(r)
	s.Add(statRec("small", 1, 0, "a.go"))
	assert.Equal(t, 1, s.Clipped)
}

func TestLineStatsBounded(t *testing.T) {
	var s LineStats
	for i := range MaxLinePaths + 5 {
		s.Add(statRec(fmt.Sprint(i), 1, 0, fmt.Sprintf("f%d", i)))
	}
	assert.Len(t, s.Files, MaxLinePaths)
	assert.Equal(t, 5, s.OtherFiles)
	assert.Len(t, s.Largest, MaxLargest)
}

func BenchmarkLineStatsAdd(b *testing.B) {
	r := statRec("x", 10, 5, "a/b/c.go", "a/b/d.go", "README.md")
	b.ReportAllocs()
	var s LineStats
	for b.Loop() {
		s.Add(r)
	}
}
