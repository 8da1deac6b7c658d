package git

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A partial clone lacks blobs: a commit whose stats cannot be computed ends
// the fetch with an error, after the records of the newer commits, which
// were computed first (they used to be thrown away with the batch they
// shared with it).
func TestStatsFailureKeepsEarlierRecords(t *testing.T) {
	dir := t.TempDir()
	runGit(t, dir, nil, "init", "-q", "-b", "main")
	for _, c := range []struct{ file, msg string }{
		{"a.txt", "c1 first"}, {"b.txt", "c2 its blob goes missing"}, {"c.txt", "c3 last"},
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, c.file), []byte(c.msg+"\n"), 0o644))
		runGit(t, dir, nil, "add", c.file)
		runGit(t, dir, nil, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", c.msg)
	}
	blob := strings.TrimSpace(runGit(t, dir, nil, "rev-parse", "HEAD~1:b.txt"))
	require.NoError(t, os.Remove(filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])))

	s := configured(t, `{"path": "`+dir+`", "stats": true}`)
	var got []sdk.Record
	err := s.Fetch(context.Background(), sdk.FetchRequest{}, func(r sdk.Record) error {
		got = append(got, r)
		return nil
	})
	require.Error(t, err)
	require.Len(t, got, 1, "the newest commit's record comes before the failure")
	assert.Equal(t, "c3 last", got[0].Title)
	assert.Equal(t, int64(1), got[0].Fields["files"])
}
