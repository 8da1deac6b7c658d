package git

import (
	"testing"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatsEdgeCases(t *testing.T) {
	dir := t.TempDir()
	var s stream
	alice := "Alice Liddell <alice@example.com>"
	c1 := s.commit("main", alice, day(2, 1), "s1 start", 0, nil,
		file("a.txt", "one\ntwo\nthree\n"), file("logo.png", "\x89PNG\x00\x01"), file("node", "a file\n"),
		file("vendor/lib/x.go", "package x\n"), file("vendor/lib/y.go", "package y\n"))
	c2 := s.commit("main", alice, day(2, 2), "s2 rename and binary", c1, nil,
		fileChange{path: "a.txt"}, file("docs/a.txt", "one\ntwo\nthree\n"), file("logo.png", "\x89PNG\x00\x02"))
	s.commit("main", alice, day(2, 3), "s3 file becomes directory, directory removed", c2, nil,
		fileChange{path: "node"}, file("node/child.txt", "x\ny"), fileChange{path: "vendor"})
	importRepo(t, dir, &s)

	for _, engine := range statsEngines {
		t.Run(engine.name, func(t *testing.T) {
			s := configured(t, pathConfig(dir))
			engine.set(t, s)
			checkEdgeStats(t, plugintest.Fetch(t, s, sdk.FetchRequest{}))
		})
	}
}

func checkEdgeStats(t *testing.T, recs []sdk.Record) {
	require.Len(t, recs, 3)
	byTitle := map[string]sdk.Record{}
	for _, r := range recs {
		byTitle[r.Title] = r
	}
	tests := []struct {
		title             string
		files, adds, dels int64
		paths             []string
	}{
		{"s1 start", 5, 6, 0, []string{"a.txt", "logo.png", "node", "vendor/lib/x.go", "vendor/lib/y.go"}},
		{"s2 rename and binary", 2, 0, 0, []string{"a.txt => docs/a.txt", "logo.png"}},
		{"s3 file becomes directory, directory removed", 4, 2, 3, []string{"node", "node/child.txt", "vendor/lib/x.go", "vendor/lib/y.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			r, ok := byTitle[tt.title]
			require.True(t, ok)
			assert.Equal(t, tt.files, r.Fields["files"])
			assert.Equal(t, tt.adds, r.Fields["additions"])
			assert.Equal(t, tt.dels, r.Fields["deletions"])
			assert.Equal(t, tt.paths, r.Fields["paths"])
		})
	}
}
