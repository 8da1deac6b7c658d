package rules

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const remoteRules = `
source "hosted" {
  plugin = git_remote(".").kind == "github" ? "builtin:github" : ""
  setup  = "no GitHub origin"
  config = {
    repo = git_remote(".").path
    host = git_remote(".").host
    url  = git_remote(".").url
  }
}
`

func TestGitRemote(t *testing.T) {
	tests := []struct {
		name   string
		remote *sdk.Remote // nil: none
		plugin string
		config map[string]any
	}{
		{"github", &sdk.Remote{Host: "github.com", Path: "acme/shop", Kind: sdk.RemoteGitHub}, "builtin:github",
			map[string]any{"repo": "acme/shop", "host": "github.com", "url": "https://github.com/acme/shop"}},
		{"another host", &sdk.Remote{Host: "git.acme.example", Path: "team/shop"}, "",
			map[string]any{"repo": "team/shop", "host": "git.acme.example", "url": "https://git.acme.example/team/shop"}},
		{"none", nil, "", map[string]any{"repo": "", "host": "", "url": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked []string
			origin := func(dir string) (sdk.Remote, bool) {
				asked = append(asked, dir)
				if tt.remote == nil {
					return sdk.Remote{}, false
				}
				return *tt.remote, true
			}
			rs, diags := Parse("sources.hcl", []byte(remoteRules), WithGitRemote(origin))
			require.False(t, diags.HasErrors(), diags.Error())
			s := rs.Source("hosted")
			assert.Equal(t, tt.plugin, s.Plugin)
			assert.Equal(t, tt.config, s.Config)
			assert.Equal(t, []string{"."}, asked, "one read per repository and load, relative to the working directory")
		})
	}
}

// TestGitRemoteReadsTheRepositoryBesideTheRulesFile loads rules from a file
// inside a real repository, from another working directory.
func TestGitRemoteReadsTheRepositoryBesideTheRulesFile(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"remote", "add", "origin", "git@gitlab.acme.example:platform/shop.git"}} {
		out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput()
		require.NoError(t, err, string(out))
	}
	file := filepath.Join(repo, "nous.hcl")
	require.NoError(t, os.WriteFile(file, []byte(remoteRules), 0o644))
	t.Chdir(t.TempDir())

	env := WithEnv(map[string]string{"GITLAB_URL": "https://gitlab.acme.example"})
	rs, diags := Load(file, env)
	require.False(t, diags.HasErrors(), diags.Error())
	assert.Equal(t, map[string]any{"repo": "platform/shop", "host": "gitlab.acme.example", "url": "https://gitlab.acme.example/platform/shop"},
		rs.Source("hosted").Config)

	// The same text as source, not a file: the working directory, no repository.
	rs, diags = Parse("nous.hcl", []byte(remoteRules), env)
	require.False(t, diags.HasErrors(), diags.Error())
	assert.Equal(t, "", rs.Source("hosted").Config["repo"])
}

func TestGitRemoteWrongCall(t *testing.T) {
	for _, expr := range []string{`git_remote()`, `git_remote(".", ".")`, `git_remote(".").owner`, `git_remote({})`} {
		t.Run(expr, func(t *testing.T) {
			_, diags := Parse("s.hcl", []byte(`source "s" {
  plugin = "builtin:git"
  config = { x = `+expr+` }
}`), WithGitRemote(func(string) (sdk.Remote, bool) { return sdk.Remote{}, false }))
			require.True(t, diags.HasErrors(), "want an error for %s", expr)
			assert.Contains(t, diags.Error(), "s.hcl:3")
		})
	}
}
