package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRelativePathsFollowTheRulesFile runs `nous fetch` from this package's
// directory on a rules file elsewhere whose sources name relative paths:
// each plugin subprocess resolves them against the rules file's directory,
// not the working directory.
func TestRelativePathsFollowTheRulesFile(t *testing.T) {
	rulesDir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(rulesDir, "data"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(rulesDir, "data", "notes.jsonl"),
		[]byte(`{"id":"N-1","title":"next to the rules"}`+"\n"), 0o644))
	repo, err := filepath.Rel(rulesDir, gitRepo(t))
	require.NoError(t, err)
	rulesPath := writeRules(t, rulesDir, fmt.Sprintf(`
nous {
  version = 1
}
source "notes" {
  plugin = "builtin:file"
  config = { path = "data/notes.jsonl" }
}
source "repo" {
  plugin = "builtin:git"
  config = { path = %q }
}
`, repo))
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NotEqual(t, wd, rulesDir)

	tests := []struct {
		source string
		check  func(t *testing.T, recs []sdk.Record)
	}{
		{"notes", func(t *testing.T, recs []sdk.Record) {
			require.Len(t, recs, 1)
			assert.Equal(t, "next to the rules", recs[0].Title)
		}},
		{"repo", func(t *testing.T, recs []sdk.Record) {
			require.NotEmpty(t, recs)
			assert.Equal(t, "Alice Chen", recs[0].Author)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", tt.source, "--format", "jsonl")
			require.Equal(t, exitOK, code, stderr)
			var recs []sdk.Record
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var r sdk.Record
				require.NoError(t, json.Unmarshal([]byte(line), &r))
				recs = append(recs, r)
			}
			tt.check(t, recs)
		})
	}
}
