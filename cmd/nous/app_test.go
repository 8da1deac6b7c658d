package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCobraUsageErrorsAreOneLineNamingTheCommand covers the flag and
// argument errors cobra reports itself.
func TestCobraUsageErrorsAreOneLineNamingTheCommand(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing question", []string{"ask"}, "nous ask: requires at least 1 arg(s), only received 0 (usage: nous ask QUESTION [flags])"},
		{"missing source", []string{"fetch"}, "nous fetch: accepts 1 arg(s), received 0 (usage: nous fetch SOURCE [flags])"},
		{"missing plugin name", []string{"plugin", "serve"}, "nous plugin serve: accepts 1 arg(s), received 0 (usage: nous plugin serve NAME"},
		{"unknown flag", []string{"lint", "--bogus"}, "nous lint: unknown flag: --bogus (usage: nous lint"},
		{"flag without value", []string{"plan", "--format"}, "nous plan: flag needs an argument: --format (usage: nous plan"},
		{"unknown command with suggestion", []string{"plna"}, `nous: unknown command "plna" for "nous" Did you mean this? plan`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := nous(t, "", tt.args...)
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, out)
			assert.True(t, strings.HasPrefix(stderr, tt.want), "got %q", stderr)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
		})
	}
}

func TestPluginDirMustBeADirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bin")
	require.NoError(t, os.WriteFile(file, nil, 0o755))
	tests := []struct {
		dir, want string
	}{
		{filepath.Join(t.TempDir(), "nope"), "nope: no such file or directory\n"},
		{file, "nous: --plugin-dir " + file + ": not a directory\n"},
	}
	for _, tt := range tests {
		code, out, stderr := nous(t, "", "plugins", "--plugin-dir", tt.dir)
		assert.Equal(t, exitUsage, code)
		assert.Empty(t, out)
		assert.Contains(t, stderr, tt.want)
	}
	code, _, stderr := nous(t, "", "plugins", "--plugin-dir", t.TempDir())
	assert.Equal(t, exitOK, code, stderr)
}
