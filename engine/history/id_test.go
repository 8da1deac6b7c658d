package history

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewIDIsUniqueAtOneTime(t *testing.T) {
	at := time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	for range 1000 {
		id := NewID(at)
		assert.Regexp(t, regexp.MustCompile(`^run-20261110T120000Z-[0-9a-f]{8}$`), id)
		assert.False(t, seen[id], "one clock, yet a fresh id every run: %s", id)
		seen[id] = true
	}
}

func TestCreateNeverReusesADirectory(t *testing.T) {
	ids := func(names ...string) func() string {
		return func() string {
			n := names[0]
			names = names[1:]
			return n
		}
	}
	tests := []struct {
		name   string
		taken  []string
		ids    []string
		want   string
		errMsg string
	}{
		{"free", nil, []string{"run-a"}, "run-a", ""},
		{"taken: a fresh id", []string{"run-a"}, []string{"run-a", "run-b"}, "run-b", ""},
		{"every id taken", []string{"run-a"}, []string{"run-a", "run-a", "run-a", "run-a", "run-a", "run-a", "run-a", "run-a"}, "",
			"8 execution ids tried"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for _, id := range tt.taken {
				require.NoError(t, os.Mkdir(filepath.Join(root, id), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(root, id, "history.json"), []byte("theirs"), 0o644))
			}
			d, err := Create(root, ids(tt.ids...), nil)
			if tt.errMsg != "" {
				require.ErrorIs(t, err, fs.ErrExist)
				assert.ErrorContains(t, err, tt.errMsg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, d.ExecutionID())
			require.NoError(t, d.LogSummary(&History{ExecutionID: d.ExecutionID()}))
			for _, id := range tt.taken {
				b, err := os.ReadFile(filepath.Join(root, id, "history.json"))
				require.NoError(t, err)
				assert.Equal(t, "theirs", string(b), "another run's directory is left alone")
			}
		})
	}
}

func TestNewDirRefusesAnExistingDirectory(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, "run-1"), 0o755))
	_, err := NewDir(root, "run-1", nil)
	assert.ErrorIs(t, err, fs.ErrExist)
}
