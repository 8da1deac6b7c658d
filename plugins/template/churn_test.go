package template

import (
	"strings"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
)

func TestAskOf(t *testing.T) {
	tests := []struct {
		query string
		want  churnAsk
	}{
		{"which files changed the most since 2018?", churnAsk{files: true}},
		{"which directories changed most last month?", churnAsk{dirs: true}},
		{"how many lines were added in 2025?", churnAsk{lines: true}},
		{"what is the largest commit of 2025?", churnAsk{largest: true}},
		{"what changed in 2025?", churnAsk{}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, askOf(tt.query), tt.query)
	}
}

func TestWriteChurn(t *testing.T) {
	recs := []sdk.Record{
		{ID: "aaaaaaa1", Kind: sdk.KindCommit, Title: "big", Fields: map[string]any{"additions": int64(90), "deletions": int64(10), "paths": []string{"a/x.go", "b.go"}}},
		{ID: "bbbbbbb2", Kind: sdk.KindCommit, Title: "small", Fields: map[string]any{"additions": int64(1), "deletions": int64(2), "paths": []string{"a/x.go"}}},
	}
	tests := []struct {
		name, query string
		records     []sdk.Record
		whole       *sdk.Evidence
		want        []string
		not         []string
	}{
		{"files", "which files changed the most?", recs, nil,
			[]string{"Lines: +91 added, -12 deleted (103 changed) in 2 commits", "1. `a/x.go` — 2 commits", "2. `b.go` — 1 commit"}, []string{"Directories"}},
		{"dirs", "most changed directories", recs, nil, []string{"1. `a` — 2 commits", "2. `.` — 1 commit"}, []string{"Files changed"}},
		{"largest", "the biggest commits", recs, nil, []string{"1. `aaaaaaa1` big — 100 lines (+90 -10)"}, nil},
		// The engine's count of the whole set wins over the context's.
		{"whole", "how many lines were added?", recs[:1], &sdk.Evidence{Total: 500, Shown: 1, Lines: &sdk.LineStats{Commits: 500, Additions: 12345}},
			[]string{"+12345 added", "in 500 commits"}, nil},
		{"no stats", "how many lines were added?", []sdk.Record{{ID: "c", Kind: sdk.KindCommit}}, nil,
			[]string{"The source gave no line statistics"}, []string{"Lines:"}},
		{"not asked", "what changed?", recs, nil, nil, []string{"Line statistics"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			writeChurn(&b, labelSets["en"], tt.query, gather(tt.records).with(tt.whole))
			for _, w := range tt.want {
				assert.Contains(t, b.String(), w)
			}
			for _, n := range tt.not {
				assert.NotContains(t, b.String(), n)
			}
		})
	}
}

func TestWriteChurnZh(t *testing.T) {
	var b strings.Builder
	writeChurn(&b, labelSets["zh"], "which files changed the most?", gather([]sdk.Record{
		{ID: "c1", Kind: sdk.KindCommit, Fields: map[string]any{"additions": int64(3), "deletions": int64(1), "paths": []string{"x.go"}}}}))
	assert.Contains(t, b.String(), "行數統計")
	assert.Contains(t, b.String(), "新增 +3")
	assert.Contains(t, b.String(), "變更最多的檔案")
}

// A count of one is written in the singular where the language has one.
func TestCountedSingular(t *testing.T) {
	en := labelSets["en"]
	assert.Equal(t, "%d merge commit, which carries no line statistics (as in git log --numstat)", en.counted(en.LinesMerges, 1))
	assert.Equal(t, en.LinesMerges, en.counted(en.LinesMerges, 2))
	assert.Equal(t, en.LinesMerges, en.counted(en.LinesMerges, 0))
	for _, format := range []string{en.LinesTotal, en.LinesWithout, en.LinesMerges, en.LinesClipped, en.CommitsTouching} {
		assert.Contains(t, en.One, format, "every count of commits has its singular")
	}
	zh := labelSets["zh"]
	assert.Equal(t, zh.LinesMerges, zh.counted(zh.LinesMerges, 1), "no singular in Chinese")
}
