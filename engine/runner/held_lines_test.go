package runner

import (
	"fmt"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The whole-set summary counts line statistics over every record, those
// left out of the context too: an agent reports the true totals.
func TestEvidenceCountsLinesOfEveryRecord(t *testing.T) {
	h := newHeld(3)
	var want sdk.LineStats
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 20 {
		rec := sdk.Record{ID: fmt.Sprint(i), Source: "git", Kind: sdk.KindCommit, Time: base.Add(time.Duration(i) * time.Hour),
			Fields: map[string]any{"additions": int64(i), "deletions": int64(1), "paths": []string{fmt.Sprintf("d%d/f.go", i%4), "README.md"}}}
		want.Add(rec)
		h.add(rec)
	}
	shown, omitted := h.done()
	require.Len(t, shown, 3)
	ev := evidence(shown, omitted)
	require.NotNil(t, ev)
	require.NotNil(t, ev.Lines)
	assert.Equal(t, 20, ev.Lines.Commits)
	assert.Equal(t, int64(190), ev.Lines.Additions)
	assert.Equal(t, int64(20), ev.Lines.Deletions)
	assert.Equal(t, 20, ev.Lines.Files["README.md"])
	assert.Equal(t, 5, ev.Lines.Dirs["d0"])
	assert.Equal(t, want.Largest, ev.Lines.Largest)
	assert.Equal(t, "19", ev.Lines.Largest[0].ID)
}

// With every record in the context, records carrying statistics still
// get the summary: an agent reads the totals instead of summing them.
func TestEvidenceWhenAllHeldCarriesLines(t *testing.T) {
	h := newHeld(10)
	for i := range 3 {
		h.add(sdk.Record{ID: fmt.Sprint(i), Source: "git", Kind: sdk.KindCommit,
			Fields: map[string]any{"additions": int64(2), "deletions": int64(1), "paths": []string{"a.go"}}})
	}
	ev := evidence(h.done())
	require.NotNil(t, ev)
	assert.Equal(t, 3, ev.Total)
	assert.Equal(t, 3, ev.Shown)
	require.NotNil(t, ev.Lines)
	assert.Equal(t, int64(6), ev.Lines.Additions)
	assert.Equal(t, 3, ev.Lines.Files["a.go"])
}

// Records without statistics keep the summary as it was: no Lines.
func TestEvidenceWithoutLines(t *testing.T) {
	h := newHeld(1)
	for i := range 3 {
		h.add(sdk.Record{ID: fmt.Sprint(i), Source: "git", Kind: sdk.KindCommit})
	}
	ev := evidence(h.done())
	require.NotNil(t, ev)
	assert.Nil(t, ev.Lines)
}

// BenchmarkHeldTally holds 1,000 of 10,000 commits and counts the rest,
// without and with line statistics.
func BenchmarkHeldTally(b *testing.B) {
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, stats := range []bool{false, true} {
		recs := make([]sdk.Record, 10_000)
		for i := range recs {
			recs[i] = sdk.Record{ID: fmt.Sprintf("%040x", i), Source: "git", Kind: sdk.KindCommit, Author: fmt.Sprintf("a%d", i%97),
				Time: base.Add(time.Duration(i) * time.Minute), Fields: map[string]any{}}
			if stats {
				recs[i].Fields = map[string]any{"additions": int64(i % 50), "deletions": int64(i % 7),
					"paths": []string{fmt.Sprintf("d%d/f%d.go", i%13, i%300), "README.md"}}
			}
		}
		b.Run(fmt.Sprintf("stats=%v", stats), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				h := newHeld(1000)
				for _, r := range recs {
					h.add(r)
				}
				evidence(h.done())
			}
		})
	}
}
