package git

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// catFileSource is a source on dir reading objects through gitBin's
// cat-file. The suite's run on go-git skips the cat-file tests.
func catFileSource(t *testing.T, dir, gitBin string) *Source {
	t.Helper()
	if !objectsWithGit {
		t.Skip("this run reads objects with go-git")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	s := New()
	s.gitBin = gitBin
	diags, err := s.Configure(context.Background(), []byte(pathConfig(dir)))
	require.NoError(t, err)
	require.False(t, diags.HasErrors(), "diagnostics: %+v", diags)
	require.NotNil(t, s.first().objects)
	t.Cleanup(func() { closeRepo(s.first().repo) })
	return s
}

// gitLog is `git log --format=%H ARGS` in dir.
func gitLog(t *testing.T, dir string, args ...string) []string {
	return strings.Fields(runGit(t, dir, nil, append([]string{"log", "--format=%H"}, args...)...))
}

// TestCatFileReadsLikeGoGit reads every object of a repository through
// git cat-file and through go-git: the same types and contents.
func TestCatFileReadsLikeGoGit(t *testing.T) {
	dir := largeRepo(t, 400, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC))
	s := catFileSource(t, dir, "git")
	s.first().objects.handover = 0 // git reads them all
	iter, err := s.first().objects.Storage.IterEncodedObjects(plumbing.AnyObject)
	require.NoError(t, err)
	n := 0
	require.NoError(t, iter.ForEach(func(want plumbing.EncodedObject) error {
		n++
		got, err := s.first().objects.EncodedObject(plumbing.AnyObject, want.Hash())
		require.NoError(t, err)
		assert.Equal(t, want.Type(), got.Type())
		assert.Equal(t, want.Size(), got.Size())
		assert.Equal(t, contents(t, want), contents(t, got), "object %s", want.Hash())
		size, err := s.first().objects.EncodedObjectSize(want.Hash())
		require.NoError(t, err)
		assert.Equal(t, want.Size(), size)
		return nil
	}))
	require.Greater(t, n, 1000)
	assert.NoError(t, s.first().objects.broken, "git read every object")
}

// TestCatFileHandsOver: after its share of reads git stops and go-git
// reads the same objects.
func TestCatFileHandsOver(t *testing.T) {
	dir := shopRepo(t)
	s := catFileSource(t, dir, "git")
	s.first().objects.handover = 3
	for i, h := range gitLog(t, dir, "--all") {
		obj, err := s.first().objects.EncodedObject(plumbing.CommitObject, plumbing.NewHash(h))
		require.NoError(t, err)
		assert.Equal(t, h, obj.Hash().String())
		if i < 2 {
			assert.NoError(t, s.first().objects.broken, "read %d", i+1)
			assert.NotNil(t, s.first().objects.proc)
		}
	}
	assert.ErrorIs(t, s.first().objects.broken, errHandedOver)
	assert.Nil(t, s.first().objects.proc, "git was stopped")
}

func contents(t *testing.T, o plumbing.EncodedObject) string {
	r, err := o.Reader()
	require.NoError(t, err)
	defer r.Close()
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return string(b)
}

// TestCatFileStore covers what a read through git cat-file can meet.
func TestCatFileStore(t *testing.T) {
	dir := shopRepo(t)
	head := gitLog(t, dir)
	tip := plumbing.NewHash(head[0])
	tests := []struct {
		name string
		run  func(t *testing.T, s *Source)
		// broken: git is no longer used afterwards.
		broken bool
	}{
		{"missing object", func(t *testing.T, s *Source) {
			missing := plumbing.NewHash(strings.Repeat("ab", 20))
			_, err := s.first().objects.EncodedObject(plumbing.AnyObject, missing)
			assert.ErrorIs(t, err, plumbing.ErrObjectNotFound)
			assert.ErrorIs(t, s.first().objects.HasEncodedObject(missing), plumbing.ErrObjectNotFound)
			_, err = s.first().objects.EncodedObjectSize(missing)
			assert.ErrorIs(t, err, plumbing.ErrObjectNotFound)
			require.NoError(t, s.first().objects.HasEncodedObject(tip))
		}, false},
		{"another type than asked", func(t *testing.T, s *Source) {
			_, err := s.first().objects.EncodedObject(plumbing.TreeObject, tip)
			assert.ErrorIs(t, err, plumbing.ErrObjectNotFound)
			_, err = object.GetCommit(s.first().objects, tip)
			require.NoError(t, err)
		}, false},
		{"killed git: go-git reads on", func(t *testing.T, s *Source) {
			_, err := object.GetCommit(s.first().objects, tip)
			require.NoError(t, err)
			require.NoError(t, s.first().objects.proc.cmd.Process.Kill())
			assert.Equal(t, head, shas(plugintest.Fetch(t, s, sdk.FetchRequest{})))
		}, true},
		{"oversize object refused", func(t *testing.T, s *Source) {
			s.first().objects.limit = 10
			_, err := object.GetCommit(s.first().objects, tip)
			require.ErrorIs(t, err, errObjectTooLarge)
			assert.Contains(t, err.Error(), "commit "+tip.String()+" has ")
			assert.Contains(t, err.Error(), "more than the 10 the git source reads at once")
			s.first().objects.limit = maxObjectSize
			assert.Equal(t, head, shas(plugintest.Fetch(t, s, sdk.FetchRequest{})), "a new git reads on")
		}, false},
		{"cancelled call", func(t *testing.T, s *Source) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			err := s.Fetch(ctx, sdk.FetchRequest{}, func(sdk.Record) error { return nil })
			require.Error(t, err)
			assert.Equal(t, sdk.KindDeadline, sdk.KindOf(err), "%v", err)
			assert.Equal(t, head, shas(plugintest.Fetch(t, s, sdk.FetchRequest{})), "the next call reads with git")
		}, false},
		{"context done mid-call kills git", func(t *testing.T, s *Source) {
			ctx, cancel := context.WithCancel(context.Background())
			stop := s.first().objects.watch(ctx)
			_, err := object.GetCommit(s.first().objects, tip)
			require.NoError(t, err)
			proc := s.first().objects.proc
			cancel()
			require.Eventually(t, proc.killed.Load, 5*time.Second, time.Millisecond)
			_, err = object.GetCommit(s.first().objects, tip)
			assert.Equal(t, sdk.KindDeadline, sdk.KindOf(err), "%v", err)
			stop()
			assert.Equal(t, head, shas(plugintest.Fetch(t, s, sdk.FetchRequest{})), "the next call starts a new git")
		}, false},
		{"context done after the call's last read", func(t *testing.T, s *Source) {
			ctx, cancel := context.WithCancel(context.Background())
			stop := s.first().objects.watch(ctx)
			_, err := object.GetCommit(s.first().objects, tip)
			require.NoError(t, err)
			proc := s.first().objects.proc
			cancel()
			require.Eventually(t, proc.killed.Load, 5*time.Second, time.Millisecond)
			stop()
			assert.Equal(t, head, shas(plugintest.Fetch(t, s, sdk.FetchRequest{})), "the next call starts a new git")
		}, false},
		{"the caller's GIT_DIR does not leak in", func(t *testing.T, s *Source) {
			other := t.TempDir()
			runGit(t, other, nil, "init", "-q")
			t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
			t.Setenv("GIT_OBJECT_DIRECTORY", filepath.Join(other, ".git", "objects"))
			assert.Equal(t, head, shas(plugintest.Fetch(t, s, sdk.FetchRequest{})))
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := catFileSource(t, dir, "git")
			tt.run(t, s)
			if tt.broken {
				assert.Error(t, s.first().objects.broken)
			} else {
				assert.NoError(t, s.first().objects.broken)
				assert.NotNil(t, s.first().objects.proc, "git still reads")
			}
		})
	}
}

// TestCatFileUnusable falls back to go-git when git cannot serve the
// repository at all: the same commits as git log, read by go-git.
func TestCatFileUnusable(t *testing.T) {
	dir := shopRepo(t)
	head := gitLog(t, dir)
	falseBin, err := exec.LookPath("false")
	if err != nil {
		t.Skip("no false executable")
	}
	tests := []struct {
		name   string
		gitBin string
	}{
		{"git exits at once", falseBin},
		{"git cannot start", filepath.Join(t.TempDir(), "no-such-git")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := catFileSource(t, dir, tt.gitBin)
			assert.Equal(t, head, shas(plugintest.Fetch(t, s, sdk.FetchRequest{})))
			assert.Error(t, s.first().objects.broken)
		})
	}
}

// TestCatFileOtherOwner reads a repository another user owns. git
// refuses to discover such a repository (safe.directory) but reads one
// named by --git-dir, as the source names it; were it to refuse, go-git
// would read it. Either way the commits are git log's.
func TestCatFileOtherOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a repository's owner needs root")
	}
	dir := shopRepo(t)
	owned := t.TempDir()
	runGit(t, owned, nil, "clone", "-q", dir, ".")
	head := gitLog(t, owned)
	require.NoError(t, filepath.Walk(owned, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4242, 4242)
	}))
	cmd := exec.Command("git", "-C", owned, "log")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "git log in a repository another user owns")
	require.Contains(t, string(out), "dubious ownership")
	s := catFileSource(t, owned, "git")
	assert.Equal(t, head, shas(plugintest.Fetch(t, s, sdk.FetchRequest{})))
	t.Logf("git cat-file --git-dir read it: %v", s.first().objects.broken == nil)
}

// TestCatFileIgnoresReplace reads objects as stored, as go-git does: a
// replace ref does not swap a commit's content.
func TestCatFileIgnoresReplace(t *testing.T) {
	dir := shopRepo(t)
	head := gitLog(t, dir)
	other := strings.TrimSpace(runGit(t, dir, nil, "-c", "user.name=Replacer", "-c", "user.email=r@x", "commit-tree", head[1]+"^{tree}", "-m", "replaced"))
	runGit(t, dir, nil, "replace", head[1], other)
	s := catFileSource(t, dir, "git")
	c, err := object.GetCommit(s.first().objects, plumbing.NewHash(head[1]))
	require.NoError(t, err)
	assert.NotEqual(t, "Replacer", c.Author.Name)
	assert.Equal(t, head, shas(plugintest.Fetch(t, s, sdk.FetchRequest{})))
}

// TestObjectsReadWithGit checks the suite's first run reads objects
// through git cat-file, not silently through the fallback.
func TestObjectsReadWithGit(t *testing.T) {
	if !objectsWithGit {
		t.Skip("this run reads objects with go-git")
	}
	dir := shopRepo(t)
	s := configured(t, pathConfig(dir))
	if s.gitBin == "" {
		t.Skip("git is not installed")
	}
	require.NotNil(t, s.first().objects)
	_, err := s.Ground(context.Background(), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermAuthor, Value: "alice"}}})
	require.NoError(t, err)
	assert.Len(t, plugintest.Fetch(t, s, sdk.FetchRequest{}), 6)
	assert.NoError(t, s.first().objects.broken)
	assert.NotNil(t, s.first().objects.proc)
}

// FuzzParseHeader feeds cat-file header parsing any line: an error or a
// valid type and size, never a panic.
func FuzzParseHeader(f *testing.F) {
	want := plumbing.NewHash("e83c5163316f89bfbde7d9ab23ca2e25604af290")
	for _, seed := range []string{
		want.String() + " commit 243\n",
		want.String() + " missing\n",
		want.String() + " blob 0\n",
		want.String() + " tree -1\n",
		want.String() + " ofs-delta 12\n",
		want.String() + " tag 99999999999999999999\n",
		want.String() + " tree 01\n",
		want.String() + "  commit 1\n",
		want.String() + " commit 1",
		"deadbeef ambiguous\n",
		"\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		typ, size, err := parseHeader(line, want)
		if err != nil {
			return
		}
		require.GreaterOrEqual(t, size, int64(0))
		require.Contains(t, []plumbing.ObjectType{plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject}, typ)
		require.Equal(t, want.String()+" "+typ.String()+" "+strconv.FormatInt(size, 10)+"\n", string(line), "only what git writes parses")
	})
}
