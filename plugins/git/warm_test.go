package git

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// warmGrounds are concurrentGrounds and an author term for the commits the
// warm test makes.
var warmGrounds = append([]sdk.GroundRequest{
	{Terms: []sdk.Term{{Kind: sdk.TermAuthor, Value: "warm"}, {Kind: sdk.TermRef, Value: "warm-tag"}, {Kind: sdk.TermPath, Value: "warm.txt"}}},
	{Terms: []sdk.Term{{Kind: sdk.TermRef, Value: "9.0.0"}, {Kind: sdk.TermRef, Value: "the latest release"}}},
}, concurrentGrounds...)

// TestWarmAnswersAsCold: one source kept while its repository changes
// (a shallow clone deepened, new commits, an amend, a reset, lightweight
// and annotated tags made and moved, loose objects written, a repack, the
// clone made whole) answers every request as a source configured afresh
// does, display ids, stats and groundings included. The object directories' times are set back after
// each change, so the listings the warm source keeps are taken as settled
// and reused until the next change touches them.
func TestWarmAnswersAsCold(t *testing.T) {
	src := largeRepo(t, 400, concurrentEnd)
	dir := t.TempDir()
	runGit(t, dir, nil, "clone", "-q", "--no-local", "--depth=30", "file://"+src, ".")
	n := 0
	commit := func(author string) {
		n++
		require.NoError(t, os.WriteFile(filepath.Join(dir, "warm.txt"), []byte(strings.Repeat("line\n", n)), 0o644))
		runGit(t, dir, nil, "add", "warm.txt")
		runGit(t, dir, nil, "-c", "user.name="+author, "-c", "user.email=warm@example.com", "commit", "-q", "-m", fmt.Sprintf("warm change %d", n))
	}
	warm := configured(t, pathConfig(dir))
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"as cloned", func() {}},
		{"deepened", func() { runGit(t, dir, nil, "fetch", "-q", "--deepen=40") }},
		{"new commits", func() { commit("Warm Tester"); commit("Warm Tester"); commit("Other Tester") }},
		{"amended", func() {
			runGit(t, dir, nil, "-c", "user.name=Warm Amender", "-c", "user.email=amend@example.com", "commit", "-q", "--amend", "--reset-author", "-m", "warm change amended")
		}},
		{"tagged", func() {
			runGit(t, dir, nil, "tag", "warm-tag", "HEAD~1")
			runGit(t, dir, nil, "-c", "user.name=Tagger", "-c", "user.email=tag@example.com", "tag", "-a", "-m", "release", "v9.0.0", "HEAD~2")
		}},
		{"reset", func() { runGit(t, dir, nil, "reset", "-q", "--hard", "HEAD~2") }},
		{"tags moved", func() {
			runGit(t, dir, nil, "tag", "-f", "warm-tag", "HEAD")
			runGit(t, dir, nil, "-c", "user.name=Tagger", "-c", "user.email=tag@example.com", "tag", "-f", "-a", "-m", "release again", "v9.0.0", "HEAD")
			commit("Warm Tester")
		}},
		{"loose objects", func() {
			for i := range 300 {
				runGit(t, dir, []byte(fmt.Sprintf("blob %d\n", i)), "hash-object", "-w", "--stdin")
			}
		}},
		{"repacked", func() { runGit(t, dir, nil, "repack", "-q", "-a", "-d") }},
		{"made whole", func() { runGit(t, dir, nil, "fetch", "-q", "--unshallow") }},
	} {
		t.Run(step.name, func(t *testing.T) {
			step.change()
			settleObjects(t, dir)
			cold := configured(t, pathConfig(dir))
			for _, req := range concurrentFetches {
				want := answer(fetchJSON(context.Background(), cold, req, nil))
				assert.Equal(t, want, answer(fetchJSON(context.Background(), warm, req, nil)), "fetch %+v", req)
			}
			for _, req := range warmGrounds {
				want := answer(groundJSON(context.Background(), cold, req))
				assert.Equal(t, want, answer(groundJSON(context.Background(), warm, req)), "ground %+v", req)
			}
		})
	}
}

// answer is a request's JSON answer or its error.
func answer(out string, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return out
}

// settleObjects sets the times of the objects directory of the repository
// dir and of the directories in it an hour back, as if they had last
// changed long ago: each setting is a new time, as a change would make.
func settleObjects(t *testing.T, dir string) {
	t.Helper()
	objects := filepath.Join(dir, ".git", "objects")
	old := time.Now().Add(-time.Hour)
	entries, err := os.ReadDir(objects)
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() {
			require.NoError(t, os.Chtimes(filepath.Join(objects, e.Name()), old, old))
		}
	}
	require.NoError(t, os.Chtimes(objects, old, old))
}
