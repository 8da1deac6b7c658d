package session

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var bounds = Bounds{MaxTurns: 3, MaxAnswerBytes: 10, MaxSessions: 2, MaxAge: time.Hour}

func turn(q string) Turn {
	return Turn{Interaction: "run-" + q, At: time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC), Query: q, Answer: "answer to " + q, Status: "success"}
}

func TestNewSessionThenAppend(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "sessions")
	s := NewStore(dir, bounds)
	sess, err := s.Load("t1")
	require.NoError(t, err)
	assert.Nil(t, sess.Last(), "a new ID starts an empty session")
	_, err = os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "loading creates nothing")

	require.NoError(t, s.Append("t1", turn("q1")))
	sess, err = s.Load("t1")
	require.NoError(t, err)
	require.Len(t, sess.Turns, 1)
	assert.Equal(t, "q1", sess.Last().Query)
	assert.Equal(t, "answer …", sess.Last().Answer, "answers are cut to max_answer_bytes")
	assert.LessOrEqual(t, len(sess.Last().Answer), bounds.MaxAnswerBytes)
	assert.Equal(t, sess.Turns[0].At, sess.Created)
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(dir)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
		fi, err = os.Stat(filepath.Join(dir, "t1.json"))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary or lock file is left")
}

func TestBounds(t *testing.T) {
	t.Run("turns", func(t *testing.T) {
		s := NewStore(t.TempDir(), bounds)
		for i := range 5 {
			require.NoError(t, s.Append("t", turn(fmt.Sprint("q", i+1))))
		}
		sess, err := s.Load("t")
		require.NoError(t, err)
		require.Len(t, sess.Turns, 3)
		assert.Equal(t, "q3", sess.Turns[0].Query, "the oldest are dropped")
		assert.Equal(t, 2, sess.Dropped)
		assert.Equal(t, 3, sess.Number(0), "turn numbers count the dropped turns")
	})
	t.Run("sessions", func(t *testing.T) {
		dir := t.TempDir()
		s := NewStore(dir, bounds)
		old := time.Now().Add(-10 * time.Minute)
		for i, id := range []string{"a", "b", "c"} {
			require.NoError(t, s.Append(id, turn("q")))
			at := old.Add(time.Duration(i) * time.Minute)
			require.NoError(t, os.Chtimes(filepath.Join(dir, id+".json"), at, at))
		}
		require.NoError(t, s.Append("a", turn("again")))
		list, unreadable, err := s.List()
		require.NoError(t, err)
		require.Empty(t, unreadable)
		var ids []string
		for _, in := range list {
			ids = append(ids, in.ID)
		}
		assert.ElementsMatch(t, []string{"a", "c"}, ids, "the least recently written beyond max_sessions go, never the one just written")
	})
	t.Run("age", func(t *testing.T) {
		dir := t.TempDir()
		s := NewStore(dir, bounds)
		require.NoError(t, s.Append("old", turn("q")))
		long := time.Now().Add(-2 * time.Hour)
		require.NoError(t, os.Chtimes(filepath.Join(dir, "old.json"), long, long))
		sess, err := s.Load("old")
		require.NoError(t, err)
		assert.Empty(t, sess.Turns, "a session older than max_age starts again")
		assert.True(t, sess.Expired, "and says so")
		require.NoError(t, s.Append("new", turn("q")))
		_, err = os.Stat(filepath.Join(dir, "old.json"))
		assert.True(t, os.IsNotExist(err), "and is removed by the next append")
	})
}

func TestBadIDs(t *testing.T) {
	s := NewStore(t.TempDir(), bounds)
	for _, id := range []string{"", "../x", "a/b", `a\b`, ".hidden", "..", "x y", strings.Repeat("a", 65), "t1.json/..", "-flag"} {
		_, err := s.Load(id)
		require.Error(t, err, "%q", id)
		assert.Contains(t, err.Error(), "want 1 to 64 letters", "%q", id)
		assert.Error(t, s.Append(id, turn("q")), "%q", id)
		assert.Error(t, s.Remove(id), "%q", id)
	}
	for _, id := range []string{"t1", "a.b_c-D", strings.Repeat("a", 64)} {
		assert.NoError(t, CheckID(id), id)
	}
}

func TestCorruptFilesAreClearErrors(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"not json", "{not json", "not a session file"},
		{"another version", `{"version": 9, "id": "t"}`, "not a version 1 session file"},
		{"another session's file", `{"version": 1, "id": "u"}`, "not a version 1 session file"},
		{"too large", `{"version": 1, "id": "t", "turns": [], "x": "` + strings.Repeat("a", maxFileBytes) + `"}`, "larger than 16 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "t.json"), []byte(tt.content), 0o600))
			s := NewStore(dir, bounds)
			_, err := s.Load("t")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), filepath.Join(dir, "t.json"), "the error names the file")
			assert.Contains(t, err.Error(), "nous sessions rm t", "and how to get rid of it")
			assert.Error(t, s.Append("t", turn("q")), "an append does not overwrite it")
		})
	}
}

func TestConcurrentAppendsKeepEveryTurn(t *testing.T) {
	s := NewStore(t.TempDir(), Bounds{MaxTurns: 100, MaxAnswerBytes: 100, MaxSessions: 10, MaxAge: time.Hour})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { assert.NoError(t, s.Append("t", turn(fmt.Sprint("q", i)))) })
	}
	wg.Wait()
	sess, err := s.Load("t")
	require.NoError(t, err)
	assert.Len(t, sess.Turns, 8)
}

func TestStaleLockIsBroken(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, "t.lock")
	require.NoError(t, os.WriteFile(lock, nil, 0o600))
	long := time.Now().Add(-2 * lockStale)
	require.NoError(t, os.Chtimes(lock, long, long))
	require.NoError(t, NewStore(dir, bounds).Append("t", turn("q")))
	_, err := os.Stat(lock)
	assert.True(t, os.IsNotExist(err))
}

func TestListAndRemove(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir, Bounds{MaxTurns: 5, MaxAnswerBytes: 100, MaxSessions: 10, MaxAge: time.Hour})
	list, unreadable, err := s.List()
	require.NoError(t, err)
	assert.Empty(t, list)
	assert.Empty(t, unreadable)
	require.NoError(t, s.Append("a", turn("first")))
	later := turn("second")
	later.At = later.At.Add(time.Hour)
	require.NoError(t, s.Append("b", later))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.json"), []byte("{oops"), 0o600))
	list, unreadable, err = s.List()
	require.NoError(t, err)
	require.Len(t, list, 2, "a corrupt file does not hide the sessions")
	require.Len(t, unreadable, 1)
	assert.Contains(t, unreadable[0].Error(), `session "bad": `+filepath.Join(dir, "bad.json")+" is not a session file")
	assert.Equal(t, Info{ID: "b", Turns: 1, Updated: later.At, Last: "second"}, list[0], "the most recently updated first")
	require.NoError(t, s.Remove("a"))
	err = s.Remove("a")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no such session")
}

func TestCut(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijk", 10, "abcdefg…"},
		{"ééééé", 6, "é…"},
		{"abc", 2, "ab"},
		{"abc", 0, "abc"},
	}
	for _, tt := range tests {
		got := cut(tt.s, tt.n)
		assert.Equal(t, tt.want, got, "%q %d", tt.s, tt.n)
		if tt.n > 0 {
			assert.LessOrEqual(t, len(got), tt.n)
		}
	}
}

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	d, err := Dir(env(map[string]string{EnvDir: "/x/s", "HOME": "/h"}))
	require.NoError(t, err)
	assert.Equal(t, "/x/s", d, "the override wins")
	if runtime.GOOS != "linux" {
		return
	}
	d, err = Dir(env(map[string]string{"XDG_STATE_HOME": "/st", "HOME": "/h"}))
	require.NoError(t, err)
	assert.Equal(t, "/st/nous/sessions", d)
	d, err = Dir(env(map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"}))
	require.NoError(t, err)
	assert.Equal(t, "/h/.local/state/nous/sessions", d, "a relative XDG_STATE_HOME is ignored, as the spec says")
	_, err = Dir(env(nil))
	assert.ErrorContains(t, err, EnvDir)
}
