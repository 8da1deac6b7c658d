package plugin_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiscoverFirstDirectoryWins(t *testing.T) {
	first := pluginDir(t, "echo", "source-only")
	second := pluginDir(t, "echo", "other")
	require.NoError(t, os.WriteFile(filepath.Join(second, "nous-plugin-data"), []byte("x"), 0o644)) // not executable
	require.NoError(t, os.WriteFile(filepath.Join(second, "README"), []byte("x"), 0o755))           // not a plugin name
	m, _ := newManager(t, plugin.Options{Dirs: []string{first, filepath.Join(first, "missing"), second}})

	assert.Equal(t, []plugin.Found{
		{Name: "echo", Path: filepath.Join(first, "nous-plugin-echo")},
		{Name: "source-only", Path: filepath.Join(first, "nous-plugin-source-only")},
		{Name: "other", Path: filepath.Join(second, "nous-plugin-other")},
	}, m.Discover())
}

func TestInspect(t *testing.T) {
	dir := pluginDir(t, "source-only")
	exeSum, err := plugin.FileSHA256(testExe(t))
	require.NoError(t, err)
	m, _ := newManager(t, plugin.Options{Dirs: []string{dir}})

	t.Run("source and agent, pinned", func(t *testing.T) {
		info := m.Inspect(context.Background(), "builtin:echo", exeSum)
		require.Empty(t, info.Error)
		assert.Equal(t, "echo", info.Name)
		assert.True(t, info.Builtin)
		assert.Equal(t, testExe(t), info.Path)
		assert.Equal(t, "1.2.3", info.Version())
		require.NotNil(t, info.Source)
		assert.Equal(t, []string{sdk.KindDocument}, info.Source.Kinds)
		assert.Equal(t, sdk.Version, info.Source.SDKVersion, "the sdk fills in its version")
		require.NotNil(t, info.Agent)
		assert.Equal(t, []string{sdk.RoleWriter, sdk.RoleCritic}, info.Agent.Roles)
		assert.Equal(t, plugin.ChecksumOK, info.Checksum)
		assert.Equal(t, exeSum, info.SHA256)
	})
	t.Run("source only, unpinned", func(t *testing.T) {
		info := m.Inspect(context.Background(), "source-only", "")
		require.Empty(t, info.Error)
		assert.Equal(t, "source-only", info.Name)
		assert.Equal(t, filepath.Join(dir, "nous-plugin-source-only"), info.Path)
		assert.NotNil(t, info.Source)
		assert.Nil(t, info.Agent)
		assert.Equal(t, plugin.ChecksumUnpinned, info.Checksum)
	})
	t.Run("pin mismatch never runs", func(t *testing.T) {
		wrong := "0" + exeSum[1:]
		if exeSum[0] == '0' {
			wrong = "1" + exeSum[1:]
		}
		info := m.Inspect(context.Background(), "builtin:echo", wrong)
		assert.Equal(t, plugin.ChecksumMismatch, info.Checksum)
		assert.Contains(t, info.Error, "refusing to run")
		assert.Nil(t, info.Source)
	})
	t.Run("old protocol", func(t *testing.T) {
		info := m.Inspect(context.Background(), "builtin:oldproto", "")
		assert.Contains(t, info.Error, "speaks nous plugin protocol 0")
	})
}
