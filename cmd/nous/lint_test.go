package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runCLI runs the CLI in-process and returns its exit code and output.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

var brokenRules = filepath.Join("..", "..", "rules", "lint", "testdata", "broken")

func TestLintBrokenRulesInEveryFormat(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif", "junit", "github", "compact"} {
		t.Run(format, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", "lint", "--format", format, brokenRules)
			assert.Equal(t, exitFindings, code, stderr)
			for _, c := range rules.Checks {
				if c.Name == rules.CheckPluginConfig {
					continue // needs --plugins and loadable rules: TestLintPluginsChecksConfig
				}
				assert.Contains(t, out, c.Name, "finding of check %s in %s output", c.Name, format)
			}
			assert.Contains(t, out, "rules.hcl")
			assert.Contains(t, out, "syntax.hcl")
		})
	}
}

func TestLintExitCodes(t *testing.T) {
	dir := t.TempDir()
	warnOnly := filepath.Join(dir, "warn.hcl")
	require.NoError(t, os.WriteFile(warnOnly, []byte("agent \"a\" { plugin = \"builtin:template\" }\n"), 0o600))
	clean := filepath.Join(dir, "clean", "nous.hcl")
	require.NoError(t, os.MkdirAll(filepath.Dir(clean), 0o755))
	require.NoError(t, os.WriteFile(clean, []byte("nous {\n  version = 1\n}\n"), 0o600))

	tests := []struct {
		name string
		args []string
		code int
	}{
		{"clean", []string{"lint", clean}, exitOK},
		{"warnings only", []string{"lint", warnOnly}, exitOK},
		{"warnings with --strict", []string{"lint", "--strict", warnOnly}, exitFindings},
		{"errors", []string{"lint", brokenRules}, exitFindings},
		{"missing path", []string{"lint", filepath.Join(dir, "nope.hcl")}, exitUsage},
		{"directory without rules", []string{"lint", t.TempDir()}, exitUsage},
		{"unknown format", []string{"lint", "--format", "yaml", clean}, exitUsage},
		{"embedded defaults", []string{"lint"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", tt.args...)
			assert.Equal(t, tt.code, code, "stdout:\n%s\nstderr:\n%s", out, stderr)
		})
	}
}

func TestLintDirectoryRecursesIntoRulesets(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a/nous.hcl":       "source \"s\" { plugin = \"x\" }\n",
		"a/intents.hcl":    "intent \"i\" {\n  retrieve \"r\" {\n    description = \"R\"\n    source = \"s\"\n  }\n}\n",
		"b/nous.hcl.json":  `{"intent": {"j": {"retrieve": {"r": {"description": "R", "source": "missing"}}}}}`,
		"b/input.json":     `{"query": "not rules"}`,
		"notes/README.txt": "no rules here",
	} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o600))
	}
	code, out, stderr := runCLI(t, "", "lint", "-f", "compact", dir)
	assert.Equal(t, exitFindings, code, stderr)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 1, out)
	assert.Contains(t, lines[0], filepath.ToSlash(filepath.Join(dir, "b", "nous.hcl.json")))
	assert.Contains(t, lines[0], `unknown-reference: Unknown source "missing"`)
}

// TestLintPluginsChecksConfig runs the built-in plugins as real subprocesses:
// what their Configure rejects becomes a plugin-config finding on the block.
func TestLintPluginsChecksConfig(t *testing.T) {
	t.Setenv("GITLAB_TOKEN", "")
	dir := t.TempDir()
	write := func(gitlabConfig string) {
		src := `source "gitlab" {
  plugin = "builtin:gitlab"
  config = {` + gitlabConfig + `}
}

source "notes" {
  plugin = "builtin:nope"
}

agent "writer" {
  plugin = "builtin:template"
}

intent "query_commits" {
  hypothesis "retrieve" {
    description = "Retrieve commit data"
    action      = "retrieve"
  }
  hypothesis "format" {
    description = "Format commit summary"
    agent       = "writer"
  }
  retrieve "commits" {
    description = "Retrieve commit data"
    source      = "gitlab"
  }
  retrieve "notes" {
    description = "Retrieve notes"
    source      = "notes"
  }
}
`
		require.NoError(t, os.WriteFile(filepath.Join(dir, "nous.hcl"), []byte(src), 0o644))
	}

	write(` base_url = "not a url" `)
	code, out, stderr := runCLI(t, "", "lint", dir)
	assert.Equal(t, exitOK, code, "without --plugins no plugin runs: %s%s", out, stderr)

	code, out, stderr = runCLI(t, "", "lint", "--plugins", "--format", "compact", dir)
	assert.Equal(t, exitFindings, code, stderr)
	assert.Contains(t, out, `nous.hcl:1:1: error: plugin-config: source "gitlab": config.base_url:`)
	assert.Contains(t, out, `source "gitlab": config.token:`)
	assert.Contains(t, out, `nous.hcl:6:1: error: plugin-config: source "notes": the plugin did not start`)
	assert.NotContains(t, out, `agent "writer"`, "the template agent accepts an empty config")

	write(` base_url = "https://gitlab.example.com", token = "glpat-lint-secret-1234" `)
	code, out, stderr = runCLI(t, "", "lint", "--plugins", "--format", "compact", dir)
	assert.Equal(t, exitFindings, code, stderr)
	assert.NotContains(t, out, `source "gitlab"`, "a valid gitlab config has no finding")
	assert.Contains(t, out, `source "notes"`)
	assert.NotContains(t, out+stderr, "glpat-lint-secret-1234")

	// An inline suppression silences a plugin-config finding like any other.
	src, err := os.ReadFile(filepath.Join(dir, "nous.hcl"))
	require.NoError(t, err)
	src = []byte(strings.Replace(string(src), `source "notes" {`, "# nous-lint-ignore: plugin-config\nsource \"notes\" {", 1))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nous.hcl"), src, 0o644))
	code, out, stderr = runCLI(t, "", "lint", "--plugins", "--format", "compact", dir)
	assert.Equal(t, exitOK, code, "%s%s", out, stderr)
	assert.NotContains(t, out, "plugin-config")
}
