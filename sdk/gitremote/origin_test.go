package gitremote

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// git runs git in dir with a fixed identity and no user or system config.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
}

// repo makes a repository with one commit and the given origin ("" for none).
func repo(t *testing.T, origin string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "src", "deep"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "deep", "a.go"), []byte("package a\n"), 0o644))
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "first")
	if origin != "" {
		git(t, dir, "remote", "add", "origin", origin)
	}
	return dir
}

func TestOrigin(t *testing.T) {
	hcl := sdk.Remote{Host: "github.com", Path: "hashicorp/hcl", Kind: sdk.RemoteGitHub}

	t.Run("from the top and from a subdirectory", func(t *testing.T) {
		dir := repo(t, "git@github.com:hashicorp/hcl.git")
		for _, d := range []string{dir, filepath.Join(dir, "src", "deep")} {
			got, ok := Origin(d, nil)
			require.True(t, ok, d)
			assert.Equal(t, hcl, got)
		}
	})
	t.Run("relative directory", func(t *testing.T) {
		dir := repo(t, "https://github.com/hashicorp/hcl.git")
		t.Chdir(filepath.Join(dir, "src"))
		got, ok := Origin(".", nil)
		require.True(t, ok)
		assert.Equal(t, hcl, got)
	})
	t.Run("credentials never come back", func(t *testing.T) {
		dir := repo(t, "https://x-access-token:ghp_s3cret@github.com/hashicorp/hcl.git")
		got, ok := Origin(dir, nil)
		require.True(t, ok)
		assert.Equal(t, hcl, got)
	})
	t.Run("a linked worktree reads the main repository's config", func(t *testing.T) {
		dir := repo(t, "https://gitlab.com/group/sub/proj.git")
		wt := filepath.Join(t.TempDir(), "wt")
		git(t, dir, "worktree", "add", "-q", wt)
		got, ok := Origin(filepath.Join(wt, "src"), nil)
		require.True(t, ok)
		assert.Equal(t, sdk.Remote{Host: "gitlab.com", Path: "group/sub/proj", Kind: sdk.RemoteGitLab}, got)
	})
	t.Run("a bare clone", func(t *testing.T) {
		dir := repo(t, "")
		bare := filepath.Join(t.TempDir(), "hcl.git")
		git(t, dir, "clone", "-q", "--bare", dir, bare)
		git(t, bare, "remote", "set-url", "origin", "ssh://git@github.com/hashicorp/hcl.git")
		got, ok := Origin(bare, nil)
		require.True(t, ok)
		assert.Equal(t, hcl, got)
	})
	t.Run("the first of several URLs, as git fetches", func(t *testing.T) {
		dir := repo(t, "https://github.com/hashicorp/hcl.git")
		git(t, dir, "config", "--add", "remote.origin.url", "https://gitlab.com/mirror/hcl.git")
		got, ok := Origin(dir, nil)
		require.True(t, ok)
		assert.Equal(t, hcl, got)
	})
	t.Run("a self-hosted instance named by the environment", func(t *testing.T) {
		dir := repo(t, "git@ghe.acme.example:platform/api.git")
		got, ok := Origin(dir, HostsFromEnv(envOf(map[string]string{"GITHUB_API_URL": "https://ghe.acme.example/api/v3"})))
		require.True(t, ok)
		assert.Equal(t, sdk.Remote{Host: "ghe.acme.example", Path: "platform/api", Kind: sdk.RemoteGitHub}, got)
		got, ok = Origin(dir, nil)
		require.True(t, ok)
		assert.Empty(t, got.Kind, "unknown without the environment")
	})

	none := map[string]func(t *testing.T) string{
		"no repository": func(t *testing.T) string { return t.TempDir() },
		"no origin":     func(t *testing.T) string { return repo(t, "") },
		"a local path":  func(t *testing.T) string { return repo(t, "/srv/git/hcl.git") },
		"another remote only": func(t *testing.T) string {
			dir := repo(t, "")
			git(t, dir, "remote", "add", "upstream", "https://github.com/hashicorp/hcl.git")
			return dir
		},
		"a config too large": func(t *testing.T) string {
			dir := repo(t, "https://github.com/hashicorp/hcl.git")
			f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteString("# " + strings.Repeat("x", maxConfigBytes) + "\n")
			require.NoError(t, err)
			require.NoError(t, f.Close())
			return dir
		},
		"a malformed config": func(t *testing.T) string {
			dir := repo(t, "")
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[remote \"origin\"\n\turl = https://github.com/a/b\n"), 0o644))
			return dir
		},
		"a .git file pointing nowhere": func(t *testing.T) string {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: ../missing\n"), 0o644))
			return dir
		},
		"a .git file that is not a link": func(t *testing.T) string {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".git"), []byte("[remote \"origin\"]\n\turl = https://github.com/a/b\n"), 0o644))
			return dir
		},
	}
	for name, dir := range none {
		t.Run(name, func(t *testing.T) {
			got, ok := Origin(dir(t), nil)
			assert.False(t, ok, "%+v", got)
			assert.Zero(t, got)
		})
	}
}

func envOf(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

func TestHostsFromEnv(t *testing.T) {
	got := HostsFromEnv(envOf(map[string]string{
		"GITHUB_API_URL":    "https://api.octo.ghe.com",
		"GITHUB_SERVER_URL": "https://octo.ghe.com",
		"GITLAB_URL":        "https://GitLab.Acme.Example.:8443/",
		"CI_SERVER_URL":     "not a url at all ::",
	}))
	assert.Equal(t, Hosts{
		"api.octo.ghe.com":    sdk.RemoteGitHub,
		"octo.ghe.com":        sdk.RemoteGitHub,
		"gitlab.acme.example": sdk.RemoteGitLab,
	}, got)
	assert.Empty(t, HostsFromEnv(envOf(nil)))
	// The public hosts keep their service whatever the environment says.
	assert.Equal(t, sdk.RemoteGitHub, HostsFromEnv(envOf(map[string]string{"GITLAB_URL": "https://github.com"})).kind("github.com"))
}

func BenchmarkOrigin(b *testing.B) {
	dir := b.TempDir()
	cmd := exec.Command("git", "init", "-q", dir)
	if err := cmd.Run(); err != nil {
		b.Skip("git is not installed")
	}
	if err := exec.Command("git", "-C", dir, "remote", "add", "origin", "git@github.com:hashicorp/hcl.git").Run(); err != nil {
		b.Fatal(err)
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Origin(sub, nil); !ok {
			b.Fatal("no origin")
		}
	}
}
