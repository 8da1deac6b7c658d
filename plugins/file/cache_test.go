package file

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// titles fetches every record of s and returns their titles.
func titles(t *testing.T, s *Source) []string {
	t.Helper()
	var out []string
	for _, r := range plugintest.Fetch(t, s, sdk.FetchRequest{}) {
		out = append(out, r.Title)
	}
	return out
}

// TestCacheRereadsChangedFile: the kept rows of a file are served only
// while it is unchanged; a rewrite (other size, other time, a same-sized
// replacement) is read anew, and a file that turns bad fails as before.
func TestCacheRereadsChangedFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "issues.jsonl")
	write := func(content string, mtime time.Time) {
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		require.NoError(t, os.Chtimes(p, mtime, mtime))
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write(`{"id":"1","title":"one"}`+"\n", t0)
	s := configured(t, map[string]any{"path": p})

	assert.Equal(t, []string{"one"}, titles(t, s))
	_, hit := s.rows.get(s.rows.key)
	require.True(t, hit, "a file read in full is kept")
	assert.Equal(t, []string{"one"}, titles(t, s), "served from the kept rows")

	write(`{"id":"1","title":"one"}`+"\n"+`{"id":"2","title":"two"}`+"\n", t0.Add(time.Second))
	assert.Equal(t, []string{"one", "two"}, titles(t, s), "a rewritten file is re-read")

	// Same size and modification time, other content, other inode: a
	// replacement by rename is re-read.
	tmp := p + ".new"
	require.NoError(t, os.WriteFile(tmp, []byte(`{"id":"1","title":"uno"}`+"\n"+`{"id":"2","title":"dos"}`+"\n"), 0o600))
	require.NoError(t, os.Chtimes(tmp, t0.Add(time.Second), t0.Add(time.Second)))
	require.NoError(t, os.Rename(tmp, p))
	assert.Equal(t, []string{"uno", "dos"}, titles(t, s), "a replaced file is re-read")

	// Same size, new modification time, other content.
	write(`{"id":"1","title":"UNO"}`+"\n"+`{"id":"2","title":"DOS"}`+"\n", t0.Add(2*time.Second))
	assert.Equal(t, []string{"UNO", "DOS"}, titles(t, s), "a same-sized rewrite is re-read")

	// Same size, same inode, same modification time (as a write within a
	// coarse file system's time tick leaves it), other content.
	write(`{"id":"1","title":"Uno"}`+"\n"+`{"id":"2","title":"Dos"}`+"\n", t0.Add(2*time.Second))
	assert.Equal(t, []string{"Uno", "Dos"}, titles(t, s), "a rewrite keeping size and time is re-read")

	grounded, err := s.Ground(context.Background(), sdk.GroundRequest{})
	require.NoError(t, err)
	assert.NotNil(t, grounded.Terms)

	write(`{"id":"1","title":"UNO"}`+"\n"+`{"id":`+"\n", t0.Add(3*time.Second))
	err = s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { return nil })
	require.Error(t, err, "a file that turned bad fails, not served from the kept rows")
	assert.Contains(t, err.Error(), "issues.jsonl:2")
}

// TestCacheBounded: a file above maxCachedFile is not kept, and a fetch
// stopped by its limit keeps nothing partial.
func TestCacheBounded(t *testing.T) {
	p := filepath.Join(t.TempDir(), "issues.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"id":"1"}`+"\n"+`{"id":"2"}`+"\n"), 0o600))
	s := configured(t, map[string]any{"path": p})
	recs := plugintest.Fetch(t, s, sdk.FetchRequest{Limit: 1})
	require.Len(t, recs, 1)
	assert.Nil(t, s.rows.rows, "a fetch stopped early keeps nothing")

	require.NoError(t, os.Truncate(p, maxCachedFile+1)) // NUL bytes: the size is all that matters before decoding
	_ = s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { return nil })
	assert.Nil(t, s.rows.rows, "a file above the bound is not kept")
}

// TestCacheConcurrent runs fetches and groundings of one source at once
// while the file changes (for -race); each sees a whole version.
func TestCacheConcurrent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "issues.jsonl")
	v1, v2 := `{"id":"1","title":"a"}`+"\n", `{"id":"1","title":"b"}`+"\n"+`{"id":"2","title":"b"}`+"\n"
	require.NoError(t, os.WriteFile(p, []byte(v1), 0o600))
	s := configured(t, map[string]any{"path": p})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				var got []string
				err := s.Fetch(context.Background(), sdk.FetchRequest{}, func(r sdk.Record) error { got = append(got, r.Title); return nil })
				if err != nil { // a rewrite in progress may show a torn file
					continue
				}
				assert.Contains(t, [][]string{{"a"}, {"b", "b"}, nil}, got)
				if i%2 == 0 {
					_, err = s.Ground(context.Background(), sdk.GroundRequest{})
					assert.NoError(t, err)
				}
			}
		}()
	}
	for j := range 10 {
		content := v1
		if j%2 == 1 {
			content = v2
		}
		tmp := p + ".tmp"
		require.NoError(t, os.WriteFile(tmp, []byte(content), 0o600))
		require.NoError(t, os.Rename(tmp, p))
	}
	wg.Wait()
	assert.Equal(t, []string{"b", "b"}, titles(t, s))
}

// TestConfigureForgetsRows: a new configuration drops the kept rows.
func TestConfigureForgetsRows(t *testing.T) {
	p := filepath.Join(t.TempDir(), "issues.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"id":"1"}`+"\n"), 0o600))
	s := configured(t, map[string]any{"path": p})
	require.Len(t, plugintest.Fetch(t, s, sdk.FetchRequest{}), 1)
	require.NotNil(t, s.rows.rows)
	plugintest.Configure(t, s, map[string]any{"path": p})
	assert.Nil(t, s.rows.rows)
}

// TestCacheKeepsRecordsApart: what a fetch emits is the caller's to change;
// the kept records, and so the next fetch, stay as the file says.
func TestCacheKeepsRecordsApart(t *testing.T) {
	p := filepath.Join(t.TempDir(), "issues.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"id":"1","status":"open","labels":["a","b"],"extra":"x"}`+"\n"), 0o600))
	s := configured(t, map[string]any{"path": p})
	first := plugintest.Fetch(t, s, sdk.FetchRequest{})
	require.Len(t, first, 1)
	require.NotNil(t, s.rows.rows, "kept")
	err := s.Fetch(context.Background(), sdk.FetchRequest{}, func(r sdk.Record) error {
		r.Fields["status"] = "changed"
		r.Fields["labels"].([]string)[0] = "changed"
		delete(r.Fields, "extra")
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, first, plugintest.Fetch(t, s, sdk.FetchRequest{}))
}

// TestCacheKeyedByMapping: records kept for one mapping of columns are not
// served for another, though the file is the same.
func TestCacheKeyedByMapping(t *testing.T) {
	p := filepath.Join(t.TempDir(), "issues.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"id":"1","title":"t","name":"n"}`+"\n"), 0o600))
	var cache rowCache
	titleOf := func(cfg config) []string {
		var out []string
		require.NoError(t, eachRecord(context.Background(), cfg, time.UTC, &cache, func(r sdk.Record) error {
			out = append(out, r.Title)
			return nil
		}))
		return out
	}
	plain := config{Path: p, Kind: "issue", Source: "file"}
	renamed := plain
	renamed.Fields = map[string]string{"title": "name"}
	assert.Equal(t, []string{"t"}, titleOf(plain))
	assert.Equal(t, []string{"n"}, titleOf(renamed))
	assert.Equal(t, []string{"t"}, titleOf(plain))
}
