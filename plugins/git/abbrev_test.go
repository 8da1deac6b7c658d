package git

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAbbrevMatchesGit compares the unique prefix of every commit with
// git's own abbreviation at its minimum length (4), where prefixes shared
// by several objects are common, in a packed repository with loose objects
// written on top.
func TestAbbrevMatchesGit(t *testing.T) {
	dir := t.TempDir()
	src := largeRepo(t, 400, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC))
	runGit(t, dir, nil, "clone", "-q", src, ".")
	for i := range 30 {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "loose.txt"), []byte(fmt.Sprintf("loose %d\n", i)), 0o644))
		runGit(t, dir, nil, "add", "loose.txt")
		runGit(t, dir, nil, "-c", "user.name=Loose", "-c", "user.email=loose@example.com", "commit", "-q", "-m", fmt.Sprintf("loose %d", i))
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(runGit(t, dir, nil, "log", "--all", "--abbrev=4", "--format=%H %h")), "\n") {
		full, short, _ := strings.Cut(line, " ")
		want[full] = short
	}
	require.Greater(t, len(want), 450)
	worktree := filepath.Join(t.TempDir(), "linked")
	runGit(t, dir, nil, "worktree", "add", "-q", "--detach", worktree)

	// A linked worktree's objects are its common directory's.
	for _, path := range []string{dir, worktree} {
		s := configured(t, pathConfig(path))
		a := newAbbrev(s.gitDir, &s.packs)
		longer := 0
		for full, short := range want {
			n, err := a.unique(plumbing.NewHash(full))
			require.NoError(t, err)
			assert.Equal(t, short, full[:max(4, n)], "commit %s", full)
			if n > 4 {
				longer++
			}
			assert.Equal(t, full[:max(minAbbrev, n)], a.short(plumbing.NewHash(full)))
		}
		assert.Positive(t, longer, "some prefixes must be shared for the test to mean anything")
	}
}

func TestAbbrevNeighbours(t *testing.T) {
	h := func(s string) plumbing.Hash { return plumbing.NewHash(s + strings.Repeat("0", 40-len(s))) }
	names := func(hs ...plumbing.Hash) []byte {
		var b []byte
		for _, x := range hs {
			b = append(b, x[:]...)
		}
		return b
	}
	table := names(h("1234"), h("12345"), h("abcdef1"), h("abcdef2"), h("ff"))
	tests := []struct {
		hash   plumbing.Hash
		common int // hex digits shared with the closest other name
	}{
		{h("abcdef1"), 6}, // abcdef2
		{h("abcdef2"), 6}, // abcdef1
		{h("1234"), 4},    // 12345
		{h("ff"), 0},      // nothing near
		{h("abcde"), 5},   // not in the table: abcde0… against abcdef…
		{h("0000"), 0},    // before the first name
		{h("ffff"), 2},    // after the last name: ff00…
	}
	for _, tt := range tests {
		t.Run(tt.hash.String(), func(t *testing.T) {
			assert.Equal(t, tt.common, closestInPack(table, tt.hash))
		})
	}
}

// TestShortIDOnFetch checks the record's display id against git.
func TestShortIDOnFetch(t *testing.T) {
	dir := shopRepo(t)
	recs, err := collect(configured(t, pathConfig(dir)), sdk.FetchRequest{})
	require.NoError(t, err)
	for _, r := range recs {
		assert.Equal(t, strings.TrimSpace(runGit(t, dir, nil, "rev-parse", "--short=7", r.ID)), r.Fields["short_id"])
	}
}

func collect(s *Source, req sdk.FetchRequest) ([]sdk.Record, error) {
	var out []sdk.Record
	err := s.Fetch(context.Background(), req, func(r sdk.Record) error { out = append(out, r); return nil })
	return out, err
}
