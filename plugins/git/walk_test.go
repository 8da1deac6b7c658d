package git

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tiedRepo is history whose committer dates do not order it: chains of
// merges committed in the same second (as a maintainer's scripted merges
// are on git/git), topic branches behind them, and a commit dated before
// its parent. Tags: v0 at the root, v1 after the first chain of merges,
// skew on the commit older than its parent.
//
//	c0 ── t1..t8 topics ── M1..M8 (one second) ── c9 [v1] ── N1..N4 (one second) ── c10
//	                                                 └─ topics from M3, M5
//	p0 ── p1 (5 h later) ── p2 [skew] (dated before p1) ── merged by c10 beside s1 (from p1)
func tiedRepo(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	var s stream
	base := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	at := func(h int) time.Time { return base.Add(time.Duration(h) * time.Hour) }
	who := "Alice Liddell <alice@example.com>"
	edit := func(name string, i int) fileChange {
		return file(fmt.Sprintf("%s/f%d.txt", name, i), fmt.Sprintf("%s %d\n", name, i))
	}

	tip := s.commit("main", who, at(0), "c0 root", 0, nil, edit("root", 0))
	s.lightTag("v0", tip)
	topic := func(name string, from, first int) int {
		side := from
		for j := 0; j < 2; j++ {
			side = s.commit(name, who, at(first+j), fmt.Sprintf("%s step %d", name, j), side, nil, edit(name, j))
		}
		return side
	}
	merges := func(prefix string, when time.Time, sides []int) []int {
		var out []int
		for i, side := range sides {
			tip = s.commit("main", who, when, fmt.Sprintf("%s%d Merge topic", prefix, i+1), tip, []int{side}, edit(prefix, i))
			out = append(out, tip)
		}
		return out
	}
	var sides []int
	for i := 0; i < 8; i++ {
		sides = append(sides, topic(fmt.Sprintf("t%d", i+1), tip, 1+2*i))
	}
	chain := merges("M", at(20), sides)
	tip = s.commit("main", who, at(21), "c9 release", tip, nil, edit("release", 9))
	s.lightTag("v1", tip)
	sides = []int{topic("u1", chain[2], 22), topic("u2", chain[4], 24), topic("u3", tip, 26), topic("u4", chain[7], 28)}
	merges("N", at(30), sides)

	p0 := s.commit("skewed", who, at(31), "p0 skew base", 0, nil, edit("skew", 0))
	p1 := s.commit("skewed", who, at(36), "p1 skew parent", p0, nil, edit("skew", 1))
	p2 := s.commit("skewed", who, at(32), "p2 dated before its parent", p1, nil, edit("skew", 2))
	s.lightTag("skew", p2)
	s1 := s.commit("side", who, at(37), "s1 side of the skewed parent", p1, nil, edit("side", 1))
	s.commit("main", who, at(40), "c10 Merge skewed history", tip, []int{p2, s1}, edit("skew", 2), edit("side", 1))
	importRepo(tb, dir, &s)
	return dir
}

// TestRangesExcludeExactly checks that a range leaves out every commit
// reachable from its excluded end, as `git log A..B` does, however the
// committer dates order the history.
func TestRangesExcludeExactly(t *testing.T) {
	dir := tiedRepo(t)
	s := configured(t, `{"stats": false, "path": "`+dir+`"}`)
	tests := []struct {
		name  string
		revs  []string
		paths []string
	}{
		{"merges in one second, tag after them", []string{"v1..main"}, nil},
		{"up to the tag", []string{"v0..v1"}, nil},
		{"topics forked inside the tied chain", []string{"main~1..main"}, nil},
		{"excluded end dated before its parent", []string{"skew..main"}, nil},
		{"union of ranges", []string{"v0..v1", "v1..main"}, nil},
		{"union where one range hides what another shows", []string{"skew..main", "v1..skew"}, nil},
		{"with a path", []string{"v1..main"}, []string{"N"}},
		{"with a path, excluded end dated before its parent", []string{"skew..main"}, []string{"side", "skew"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []string
			for _, r := range tt.revs {
				args := []string{"log", "--format=%H", r}
				if tt.paths != nil {
					args = append(append(args, "--"), tt.paths...)
				}
				want = append(want, strings.Fields(runGit(t, dir, nil, args...))...)
			}
			slices.Sort(want)
			want = slices.Compact(want)
			require.NotEmpty(t, want)
			filters := map[string][]string{"revisions": tt.revs}
			if tt.paths != nil {
				filters["paths"] = tt.paths
			}
			got := shas(plugintest.Fetch(t, s, sdk.FetchRequest{Filters: filters}))
			assert.Len(t, got, len(want), "each commit once")
			slices.Sort(got)
			assert.Equal(t, want, got)
		})
	}
}
