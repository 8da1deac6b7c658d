package git

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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
	percent := map[string]string{} // git's %h at its own length, as users see it
	for _, line := range strings.Split(strings.TrimSpace(runGit(t, dir, nil, "log", "--all", "--format=%H %h")), "\n") {
		full, short, _ := strings.Cut(line, " ")
		percent[full] = short
	}
	worktree := filepath.Join(t.TempDir(), "linked")
	runGit(t, dir, nil, "worktree", "add", "-q", "--detach", worktree)

	// A linked worktree's objects are its common directory's.
	for _, path := range []string{dir, worktree} {
		s := configured(t, pathConfig(path))
		a := newAbbrev(s.names)
		longer := 0
		for full, short := range want {
			n, err := a.unique(plumbing.NewHash(full))
			require.NoError(t, err)
			assert.Equal(t, short, full[:max(4, n)], "commit %s", full)
			if n > 4 {
				longer++
			}
			assert.Equal(t, percent[full], a.short(plumbing.NewHash(full)), "commit %s as %%h", full)
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

// TestAbbrevKeptAcrossChanges: display ids computed with the object names
// a long-running source keeps match git's at its minimum length after
// loose objects are written, after a repack, and when a loose object lands
// in a directory listed within racyWindow of its last change even though
// its time stamp is the same (a change within one tick of the file
// system's clock). A settled listing is reused, not read again.
func TestAbbrevKeptAcrossChanges(t *testing.T) {
	dir := t.TempDir()
	runGit(t, dir, nil, "clone", "-q", largeRepo(t, 400, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)), ".")
	s := configured(t, pathConfig(dir))
	check := func(t *testing.T) {
		t.Helper()
		a := newAbbrev(s.names) // one a fetch, on the names kept
		for _, line := range strings.Split(strings.TrimSpace(runGit(t, dir, nil, "log", "--all", "--abbrev=4", "--format=%H %h")), "\n") {
			full, short, _ := strings.Cut(line, " ")
			n, err := a.unique(plumbing.NewHash(full))
			require.NoError(t, err)
			require.Equal(t, short, full[:max(4, n)], "commit %s", full)
		}
	}
	blobs := t.TempDir()
	loose := func(from, to int) { // blobs "loose N\n", written by one git
		var paths strings.Builder
		for i := from; i < to; i++ {
			p := filepath.Join(blobs, strconv.Itoa(i))
			require.NoError(t, os.WriteFile(p, []byte(fmt.Sprintf("loose %d\n", i)), 0o644))
			paths.WriteString(p + "\n")
		}
		runGit(t, dir, []byte(paths.String()), "hash-object", "-w", "--stdin-paths")
	}
	settleObjects(t, dir)
	check(t)

	t.Run("loose objects", func(t *testing.T) {
		loose(0, 2000)
		settleObjects(t, dir)
		check(t)
	})
	t.Run("repacked", func(t *testing.T) {
		runGit(t, dir, nil, "repack", "-q", "-a", "-d")
		runGit(t, dir, nil, "prune-packed")
		settleObjects(t, dir)
		check(t)
	})
	t.Run("same time stamp within racyWindow", func(t *testing.T) {
		s.names.window = 24 * time.Hour // whatever the machine's speed
		defer func() { s.names.window = racyWindow }()
		loose(2000, 4000)
		objects := filepath.Join(dir, ".git", "objects")
		stamps := map[string]time.Time{}
		entries, err := os.ReadDir(objects)
		require.NoError(t, err)
		for _, e := range entries {
			fi, err := os.Stat(filepath.Join(objects, e.Name()))
			require.NoError(t, err)
			stamps[e.Name()] = fi.ModTime()
		}
		check(t) // listings of directories changed just now
		loose(4000, 6000)
		for name, mtime := range stamps { // the same stamps, as within one tick
			require.NoError(t, os.Chtimes(filepath.Join(objects, name), mtime, mtime))
		}
		check(t)
	})
	t.Run("a settled listing is reused", func(t *testing.T) {
		settleObjects(t, dir)
		h := plumbing.NewHash(strings.TrimSpace(runGit(t, dir, nil, "rev-parse", "HEAD")))
		_, err := newAbbrev(s.names).unique(h) // lists h's directory, if any
		require.NoError(t, err)
		s.names.mu.Lock()
		s.names.present[h[0]] = true
		s.names.loose[h[0]].names = append(s.names.loose[h[0]].names, plumbing.NewHash(h.String()[:30]+"0000000000"))
		s.names.mu.Unlock()
		fi, err := os.Stat(filepath.Join(dir, ".git", "objects", h.String()[:2]))
		if err == nil { // the directory exists and its listing was kept
			n, err := newAbbrev(s.names).unique(h)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, n, 30, "the planted name shares 30 digits: %s", fi.Name())
		}
	})
}

// TestAutoAbbrev is git's starting length for %h when core.abbrev is unset
// (repo_find_unique_abbrev_r): half the bits of the packed objects' count,
// rounded up, at least 7. urfave/cli's 20,000 objects show 8 digits and
// terraform's 542,000 show 10, as git log does there.
func TestAutoAbbrev(t *testing.T) {
	for _, tt := range []struct {
		packed uint64
		want   int
	}{{0, 7}, {1, 7}, {8191, 7}, {8192, 7}, {16383, 7}, {16384, 8}, {20000, 8}, {65535, 8}, {65536, 9}, {542000, 10}, {1 << 20, 11}, {1<<63 + 1, 32}} {
		assert.Equal(t, tt.want, autoAbbrev(tt.packed), "%d objects", tt.packed)
	}
}
