package plugin_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyWithIdentity copies the test binary to path with an identity trailer,
// so the ident plugin can tell which copy runs.
func copyWithIdentity(t *testing.T, path, id string) string {
	t.Helper()
	src, err := os.Open(testExe(t))
	require.NoError(t, err)
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	require.NoError(t, err)
	_, err = io.Copy(dst, src)
	require.NoError(t, err)
	_, err = dst.WriteString(identTrailer + id)
	require.NoError(t, err)
	require.NoError(t, dst.Close())
	return path
}

// TestPinnedBinarySwapRace swaps another binary over a pinned plugin's path
// while the manager launches it: what runs is always the pinned binary, or
// nothing (a checksum error), never the impostor.
func TestPinnedBinarySwapRace(t *testing.T) {
	stage, dir := t.TempDir(), t.TempDir()
	pinned := copyWithIdentity(t, filepath.Join(stage, "pinned"), "pinned")
	impostor := copyWithIdentity(t, filepath.Join(stage, "impostor"), "impostor")
	target := filepath.Join(dir, plugin.BinaryPrefix+"ident")
	require.NoError(t, os.Link(pinned, target))
	pin, err := plugin.FileSHA256(pinned)
	require.NoError(t, err)
	m, _ := newManager(t, plugin.Options{})

	// The swapper renames the impostor, then the pinned binary, over the
	// path, as fast as it can.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tmp := filepath.Join(dir, ".swap")
		for {
			for _, src := range []string{impostor, pinned} {
				select {
				case <-stop:
					_ = os.Remove(tmp)
					_ = os.Remove(target)
					_ = os.Link(pinned, target)
					return
				default:
				}
				_ = os.Remove(tmp)
				if os.Link(src, tmp) == nil {
					_ = os.Rename(tmp, target)
				}
			}
		}
	})
	const launches = 40
	ran := map[string]int{}
	for range launches {
		info := m.Inspect(context.Background(), target, pin)
		if info.Error != "" {
			assert.Equal(t, plugin.ChecksumMismatch, info.Checksum, "only a pin mismatch may stop a launch: %s", info.Error)
			ran["refused"]++
			continue
		}
		ran[info.Version()]++
	}
	close(stop)
	wg.Wait()
	t.Logf("outcomes of %d launches during the swaps: %v", launches, ran)
	assert.Zero(t, ran["impostor"], "the impostor ran although the pin names another binary")
	assert.Equal(t, launches, ran["pinned"]+ran["refused"], "every launch ran the pinned binary or nothing: %v", ran)

	info := m.Inspect(context.Background(), target, pin)
	require.Empty(t, info.Error)
	assert.Equal(t, "pinned", info.Version(), "with the pinned binary in place, it runs")
	assert.Equal(t, plugin.ChecksumOK, info.Checksum)
}
