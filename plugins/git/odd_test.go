package git

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOddRepositories fetches and grounds repositories in unusual states
// and compares with git log there: no panic, no error, the same commits.
func TestOddRepositories(t *testing.T) {
	commit := func(t *testing.T, dir, name, content, msg string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
		runGit(t, dir, nil, "add", name)
		runGit(t, dir, nil, "-c", "user.name=Odd Person", "-c", "user.email=odd@example.com", "commit", "-q", "-m", msg)
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"detached HEAD", func(t *testing.T, dir string) {
			commit(t, dir, "a.txt", "a\n", "one")
			commit(t, dir, "a.txt", "b\n", "two")
			runGit(t, dir, nil, "checkout", "-q", "--detach", "HEAD~1")
		}},
		{"orphan branch", func(t *testing.T, dir string) {
			commit(t, dir, "a.txt", "a\n", "one")
			runGit(t, dir, nil, "checkout", "-q", "--orphan", "other")
			runGit(t, dir, nil, "rm", "-q", "-rf", ".")
			commit(t, dir, "b.txt", "b\n", "orphan root")
		}},
		{"unborn branch beside others", func(t *testing.T, dir string) {
			commit(t, dir, "a.txt", "a\n", "one")
			runGit(t, dir, nil, "symbolic-ref", "HEAD", "refs/heads/unborn")
		}},
		{"objects borrowed through alternates", func(t *testing.T, dir string) {
			src := t.TempDir()
			runGit(t, src, nil, "init", "-q", "-b", "main")
			commit(t, src, "a.txt", "a\n", "one")
			commit(t, src, "vendor/lib/x.go", "package x\n", "two")
			alternates := filepath.Join(dir, ".git", "objects", "info", "alternates")
			require.NoError(t, os.WriteFile(alternates, []byte(filepath.Join(src, ".git", "objects")+"\n"), 0o644))
			runGit(t, dir, nil, "update-ref", "refs/heads/main", strings.TrimSpace(runGit(t, src, nil, "rev-parse", "HEAD")))
		}},
		{"submodule", func(t *testing.T, dir string) {
			sub := t.TempDir()
			runGit(t, sub, nil, "init", "-q", "-b", "main")
			commit(t, sub, "lib.go", "package lib\n", "lib")
			commit(t, dir, "a.txt", "a\n", "one")
			runGit(t, dir, nil, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/lib")
			runGit(t, dir, nil, "-c", "user.name=Odd Person", "-c", "user.email=odd@example.com", "commit", "-q", "-m", "add submodule")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			runGit(t, dir, nil, "init", "-q", "-b", "main")
			tt.setup(t, dir)
			s := configured(t, pathConfig(dir))
			var want []string
			if tt.name != "unborn branch beside others" {
				want = strings.Fields(runGit(t, dir, nil, "log", "--format=%H"))
			}
			recs := plugintest.Fetch(t, s, sdk.FetchRequest{})
			assert.Equal(t, want, nilIfEmpty(shas(recs)))
			resp, err := s.Ground(context.Background(), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermPath, Value: "vendor/lib"}, {Kind: sdk.TermAuthor, Value: "odd"}}})
			require.NoError(t, err)
			require.Len(t, resp.Terms, 2)
		})
	}
}
