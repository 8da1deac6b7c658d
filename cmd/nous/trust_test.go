package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkout is a cloned repository whose rules use its own plugin binary,
// which creates a marker file when it runs.
type checkout struct {
	dir, marker, config string
}

func newCheckout(t *testing.T) checkout {
	t.Helper()
	root := t.TempDir()
	c := checkout{dir: filepath.Join(root, "repo"), marker: filepath.Join(root, "ran"), config: filepath.Join(root, "config")}
	plugins := filepath.Join(c.dir, ".nous", "plugins")
	require.NoError(t, os.MkdirAll(plugins, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(plugins, "nous-plugin-x"), []byte("#!/bin/sh\ntouch "+c.marker+"\n"), 0o755))
	// The default rules, with the checkout's own plugin as every agent.
	defaults := filepath.Join("..", "..", "examples", "rules", "default")
	files, err := filepath.Glob(filepath.Join(defaults, "*.hcl"))
	require.NoError(t, err)
	agentPlugin := regexp.MustCompile(`(?m)^(\s*plugin\s*=).*$`)
	for _, f := range files {
		text, err := os.ReadFile(f)
		require.NoError(t, err)
		if filepath.Base(f) == "agents.hcl" {
			text = agentPlugin.ReplaceAll(text, []byte(`$1 "x"`))
		}
		require.NoError(t, os.WriteFile(filepath.Join(c.dir, ".nous", filepath.Base(f)), text, 0o644))
	}
	// A repository with a commit, so ask has something to reason over.
	for _, args := range [][]string{
		{"init", "-q"},
		{"-c", "user.name=Ana", "-c", "user.email=ana@example.com", "commit", "-q", "--allow-empty", "-m", "first commit"},
	} {
		git := exec.Command("git", args...)
		git.Dir = c.dir
		out, err := git.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return c
}

// nous runs this test binary as nous in the checkout, with a home and a
// config directory of its own.
func (c checkout) nous(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(testBinary(t), args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "HOME="+filepath.Dir(c.config), "XDG_CONFIG_HOME="+c.config, "NOUS_TRUST_PROJECT_PLUGINS=")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, string(out)
}

func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	return exe
}

// TestClonedCheckoutDoesNotRunItsPlugins: nous in a cloned repository does
// not run the repository's plugin binaries until the user trusts them.
func TestClonedCheckoutDoesNotRunItsPlugins(t *testing.T) {
	commands := [][]string{
		{"plugins"},
		{"lint", "--plugins"},
		{"ask", "what changed?"},
	}
	for _, args := range commands {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			c := newCheckout(t)
			_, out := c.nous(t, nil, args...)
			assert.NoFileExists(t, c.marker, "nous %v ran the checkout's plugin: %s", args, out)
			assert.Contains(t, out, "nous plugins trust", "the refusal says how to trust")

			code, out := c.nous(t, nil, "plugins", "trust")
			require.Zero(t, code, out)
			assert.Contains(t, out, filepath.Join(".nous", "plugins", "nous-plugin-x"))
			_, out = c.nous(t, nil, args...)
			assert.FileExists(t, c.marker, "once trusted, nous %v runs it: %s", args, out)

			// A binary that changes after it was trusted is refused again.
			require.NoError(t, os.Remove(c.marker))
			bin := filepath.Join(c.dir, ".nous", "plugins", "nous-plugin-x")
			require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\ntouch "+c.marker+"\n# changed\n"), 0o755))
			_, out = c.nous(t, nil, args...)
			assert.NoFileExists(t, c.marker, "a changed binary ran: %s", out)
			assert.Contains(t, out, "changed since you trusted it")
		})
	}
	t.Run("CI override", func(t *testing.T) {
		c := newCheckout(t)
		_, out := c.nous(t, []string{"NOUS_TRUST_PROJECT_PLUGINS=1"}, "lint", "--plugins")
		assert.FileExists(t, c.marker, out)
	})
	t.Run("a pin in the project's own rules does not vouch", func(t *testing.T) {
		c := newCheckout(t)
		bin := filepath.Join(c.dir, ".nous", "plugins", "nous-plugin-x")
		code, out := c.nous(t, nil, "plugins") // prints nothing to trust with; compute the pin
		_ = code
		sum := sha256File(t, bin)
		require.NoError(t, os.WriteFile(filepath.Join(c.dir, "nous.hcl"), []byte("nous {\n  version = 1\n}\nsource \"s\" {\n  plugin = \"x\"\n  sha256 = \""+sum+"\"\n}\n"), 0o644))
		_, out = c.nous(t, nil, "lint", "--plugins")
		assert.NoFileExists(t, c.marker, out)
	})
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	sum, err := plugin.FileSHA256(path)
	require.NoError(t, err)
	return sum
}
