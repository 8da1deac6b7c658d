package git

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGroundReadsWhatTermsNeed: the history index is read for author terms
// only, the tree for path terms only; the coverage comes from the tip.
func TestGroundReadsWhatTermsNeed(t *testing.T) {
	dir := groundRepo(t)
	tipTime := day(1, 10).Add(8 * time.Hour)
	for _, tt := range []struct {
		name            string
		terms           []sdk.Term
		history, tree   bool
		earliestIsKnown bool
	}{
		{"no terms", nil, false, false, false},
		{"refs and projects", []sdk.Term{{Kind: sdk.TermRef, Value: "v1.0"}, {Kind: sdk.TermProject, Value: "shop"}}, false, false, false},
		{"an empty author", []sdk.Term{{Kind: sdk.TermAuthor, Value: " "}}, false, false, false},
		{"a path", []sdk.Term{{Kind: sdk.TermPath, Value: "api"}}, false, true, false},
		{"an author", []sdk.Term{{Kind: sdk.TermAuthor, Value: "alice"}}, true, false, true},
		{"both", []sdk.Term{{Kind: sdk.TermAuthor, Value: "alice"}, {Kind: sdk.TermPath, Value: "api"}}, true, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := configured(t, pathConfig(dir))
			resp, err := s.Ground(context.Background(), sdk.GroundRequest{Terms: tt.terms})
			require.NoError(t, err)
			assert.Equal(t, tt.history, s.hist != nil, "history read")
			assert.Equal(t, tt.tree, s.paths != nil, "tree read")
			assert.True(t, tipTime.Equal(resp.Coverage.Latest), "latest: the tip's date, got %s", resp.Coverage.Latest)
			assert.Equal(t, tt.earliestIsKnown, !resp.Coverage.Earliest.IsZero(), "earliest from the history read")
			assert.Empty(t, resp.Coverage.Truncated)
		})
	}
}

// TestGroundCachesPerTip: a second author question reuses the index until
// the tip moves.
func TestGroundCachesPerTip(t *testing.T) {
	dir := groundRepo(t)
	s := configured(t, pathConfig(dir))
	req := sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermAuthor, Value: "alice"}, {Kind: sdk.TermPath, Value: "api"}}}
	_, err := s.Ground(context.Background(), req)
	require.NoError(t, err)
	hist, paths := s.hist, s.paths
	_, err = s.Ground(context.Background(), req)
	require.NoError(t, err)
	assert.Same(t, hist, s.hist)
	assert.Same(t, paths, s.paths)

	tip := strings.TrimSpace(runGit(t, dir, nil, "-c", "user.name=Dan", "-c", "user.email=dan@example.com", "commit-tree", "main^{tree}", "-p", "main", "-m", "new tip"))
	runGit(t, dir, nil, "update-ref", "refs/heads/main", tip)
	resp, err := s.Ground(context.Background(), req)
	require.NoError(t, err)
	assert.NotSame(t, hist, s.hist, "the tip moved")
	assert.Same(t, paths, s.paths, "the same tree")
	assert.Equal(t, []string{"alice"}, resp.Terms[0].Canonical)
	assert.Equal(t, hist.commits+1, s.hist.commits)
}

// TestHistoryGitMatchesGoGit: the `git log` index holds what go-git's walk
// reads: raw names and addresses (no mailmap, no re-encoding), each
// commit's committer time in its zone, the bounds' cut.
func TestHistoryGitMatchesGoGit(t *testing.T) {
	shallow := t.TempDir()
	runGit(t, shallow, nil, "clone", "-q", "--no-local", "--depth=27", "file://"+largeRepo(t, 400, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)), ".")
	for name, dir := range map[string]string{
		"people":  peopleRepo(t),
		"ground":  groundRepo(t),
		"tied":    tiedRepo(t),
		"shallow": shallow,
		"odd":     oddIdentityRepo(t),
	} {
		t.Run(name, func(t *testing.T) {
			s := configured(t, pathConfig(dir))
			if s.gitBin == "" {
				t.Skip("git is not installed")
			}
			tipHash, _, err := s.firstCall().resolve("HEAD")
			require.NoError(t, err)
			tip, err := object.GetCommit(s.first().repo.Storer, tipHash)
			require.NoError(t, err)
			shallowSet, err := s.firstCall().shallowSet()
			require.NoError(t, err)
			want, err := readHistory(context.Background(), newWalker(s.firstCall().commit, shallowSet), tip)
			require.NoError(t, err)
			got, err := readHistoryGit(context.Background(), s.gitBin, s.gitDir.Root(), s.first().repo.Storer, tipHash)
			require.NoError(t, err)
			assert.Equal(t, want.identities, got.identities)
			assert.Equal(t, want.counts, got.counts)
			assert.Equal(t, want.members, got.members)
			assert.Equal(t, want.commits, got.commits)
			assert.Equal(t, commitTimes(want), commitTimes(got))
			assert.Equal(t, want.earliest.Format(time.RFC3339), got.earliest.Format(time.RFC3339), "the committer's zone kept")
			assert.Empty(t, got.cut)
		})
	}
}

// commitTimes lists each commit's author identity and time, sorted: the
// walk orders ties differently from git.
func commitTimes(h *history) []string {
	out := make([]string, len(h.when))
	for k, at := range h.authorOf {
		out[k] = fmt.Sprintf("%d %s", h.when[k], h.identities[at])
	}
	slices.Sort(out)
	return out
}

// oddIdentityRepo has a name in Latin-1 under an encoding header, an
// author a .mailmap renames, a replaced commit and a committer zone east
// of UTC: git log must report them as go-git reads them.
func oddIdentityRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	data := func(s string) string { return fmt.Sprintf("data %d\n%s\n", len(s), s) }
	stream := "commit refs/heads/main\nmark :1\n" +
		"author Ren\xe9 Latin <rene@example.com> 1700000000 +0200\n" +
		"committer Ren\xe9 Latin <rene@example.com> 1700000000 +0200\n" +
		"encoding iso-8859-1\n" + data("first") +
		"M 644 inline .mailmap\n" + data("Canonical Name <rene@example.com> <bob@x>") + "\n" +
		"commit refs/heads/main\nmark :2\n" +
		"author Bob <bob@x> 1700003600 -0500\ncommitter Bob <bob@x> 1700003600 -0500\n" +
		data("second") + "from :1\n\n"
	runGit(t, dir, nil, "init", "-q", "-b", "main")
	runGit(t, dir, []byte(stream), "fast-import", "--quiet")
	runGit(t, dir, nil, "checkout", "-q", "main")
	first := strings.TrimSpace(runGit(t, dir, nil, "rev-parse", "main~1"))
	other := strings.TrimSpace(runGit(t, dir, nil, "-c", "user.name=Replacer", "-c", "user.email=r@x", "commit-tree", first+"^{tree}", "-m", "replaced"))
	runGit(t, dir, nil, "replace", first, other)
	return dir
}

// TestNewestBoundary: a complete repository has none.
func TestNewestBoundary(t *testing.T) {
	s := configured(t, pathConfig(groundRepo(t)))
	c, err := s.firstCall().newestBoundary(nil)
	require.NoError(t, err)
	assert.Nil(t, c)
}

// BenchmarkGroundCold grounds on a 2,000-commit repository freshly opened,
// as a plugin's first question is: a question without terms reads the tip
// only; an author term reads the history index with git log or go-git.
func BenchmarkGroundCold(b *testing.B) {
	dir := largeRepo(b, 2000, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC))
	for _, tt := range []struct {
		name  string
		terms []sdk.Term
	}{
		{"no terms", nil},
		{"author", []sdk.Term{{Kind: sdk.TermAuthor, Value: "alice"}}},
	} {
		for _, engine := range statsEngines[:2] {
			b.Run(tt.name+"/"+engine.name, func(b *testing.B) {
				req := sdk.GroundRequest{Terms: tt.terms}
				b.ReportAllocs()
				for b.Loop() {
					s := configured(b, pathConfig(dir))
					engine.set(b, s)
					if _, err := s.Ground(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// FuzzParseHistory: any git log output gives commits, a cut or an error,
// never a panic, and well-formed lines are each one commit.
func FuzzParseHistory(f *testing.F) {
	f.Add([]byte("0123456789012345678901234567890123456789\x00Ann\x00ann@x\x002024-03-01T10:00:00+02:00\x00\n"))
	f.Add([]byte("0123456789012345678901234567890123456789\x00Ann\x00ann@x\x002024-03-01T10:00:00Z\x00ISO-8859-1\n"))
	f.Add([]byte("short\x00line\n"))
	f.Add([]byte("a\x00b\x00c\x00not a date\x00\n"))
	f.Add([]byte(strings.Repeat("x", 200)))
	f.Fuzz(func(t *testing.T, out []byte) {
		b := newHistoryBuilder(plumbing.ZeroHash)
		err := parseHistory(bufio.NewReaderSize(bytes.NewReader(out), maxHistoryLine), memory.NewStorage(), b)
		h := b.finish()
		if err == nil {
			assert.LessOrEqual(t, h.commits, strings.Count(string(out), "\n")+1)
		}
		assert.Len(t, h.when, h.commits)
	})
}

// TestParseHistoryLongLine: a line longer than the bound is an error (the
// caller then walks with go-git), not a partial commit.
func TestParseHistoryLongLine(t *testing.T) {
	b := newHistoryBuilder(plumbing.ZeroHash)
	err := parseHistory(bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", maxHistoryLine+10)+"\n"), maxHistoryLine), memory.NewStorage(), b)
	require.ErrorContains(t, err, "longer than")
	assert.Zero(t, b.h.commits)
}
