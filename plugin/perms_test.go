//go:build unix

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

// markerScript writes a plugin script that creates a marker file when run
// and returns the script's and the marker's paths.
func markerScript(t *testing.T, dir string) (script, marker string) {
	t.Helper()
	marker = filepath.Join(t.TempDir(), "ran")
	script = filepath.Join(dir, plugin.BinaryPrefix+"marker")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755))
	return script, marker
}

// TestLoosePermissionsAreRefused: like ssh with a key others can write, a
// plugin binary or directory that others can write (or that another user
// owns) is refused before it runs.
func TestLoosePermissionsAreRefused(t *testing.T) {
	tests := []struct {
		name  string
		loose func(t *testing.T, dir, script string)
		want  string
	}{
		{"binary writable by others", func(t *testing.T, _, script string) { require.NoError(t, os.Chmod(script, 0o757)) }, "writable by others"},
		{"binary writable by its group", func(t *testing.T, _, script string) { require.NoError(t, os.Chmod(script, 0o775)) }, "writable by its group"},
		{"directory writable by others", func(t *testing.T, dir, _ string) { require.NoError(t, os.Chmod(dir, 0o777)) }, "writable by others"},
		{"binary owned by another user", func(t *testing.T, _, script string) {
			if os.Geteuid() != 0 {
				t.Skip("only root can give a file away")
			}
			require.NoError(t, os.Chown(script, 65534, 65534))
		}, "owned by uid 65534"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "plugins")
			require.NoError(t, os.Mkdir(dir, 0o755))
			script, marker := markerScript(t, dir)
			tt.loose(t, dir, script)

			m, _ := newManager(t, plugin.Options{Dirs: []string{dir}}, source("s", "marker"))
			err := m.Fetch(context.Background(), "s", sdk.FetchRequest{}, collect(new([]sdk.Record)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "refusing to run")
			info := m.Inspect(context.Background(), script, "")
			assert.Contains(t, info.Error, tt.want)
			assert.NoFileExists(t, marker, "a plugin with loose permissions never runs")
		})
	}
}
