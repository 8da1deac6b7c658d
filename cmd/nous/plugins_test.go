package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The executor runs on the plugin manager.
var (
	_ engine.Sources = (*plugin.Manager)(nil)
	_ engine.Agents  = (*plugin.Manager)(nil)
)

// buildExamplePlugin builds examples/jsonl-source into dir, or skips.
func buildExamplePlugin(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "nous-plugin-jsonl")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("..", "..", "examples", "jsonl-source")
	cmd.Env = append(os.Environ(), envAsNous+"=") // the go tool is not nous
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("cannot build the example plugin, skipping: %v\n%s", err, out)
	}
	return bin
}

func selfSHA256(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	sum, err := plugin.FileSHA256(exe)
	require.NoError(t, err)
	return sum
}

func writeRules(t *testing.T, dir, text string) string {
	t.Helper()
	path := filepath.Join(dir, "nous.hcl")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func TestPluginsListsBuiltinsDiscoveredAndPinned(t *testing.T) {
	dir := t.TempDir()
	pluginDir := filepath.Join(dir, "plugins")
	require.NoError(t, os.Mkdir(pluginDir, 0o755))
	bin := buildExamplePlugin(t, pluginDir)
	wrong := "0000000000000000000000000000000000000000000000000000000000000000"
	rulesPath := writeRules(t, dir, fmt.Sprintf(`
nous {
  version = 1
}
source "repo" {
  plugin = "builtin:git"
  sha256 = %q
}
source "events" {
  plugin = "jsonl"
  config = { path = "events.jsonl" }
}
agent "writer" {
  plugin = "builtin:template"
  sha256 = %q
}
`, wrong, selfSHA256(t)))

	code, out, stderr := runCLI(t, "", "plugins", "--format", "json", "--rules", rulesPath, "--plugin-dir", pluginDir)
	assert.Equal(t, exitFindings, code, "a pin mismatch is a finding; stderr: %s", stderr)
	var report pluginsReport
	require.NoError(t, json.Unmarshal([]byte(out), &report), out)
	assert.Equal(t, pluginDir, report.SearchPath[0], "--plugin-dir is searched first")

	rows := map[string]pluginListing{}
	for _, p := range report.Plugins {
		rows[p.Ref+" "+string(p.Checksum)] = p
	}
	git := rows["builtin:git pinned-mismatch"]
	assert.Equal(t, []string{"source repo"}, git.UsedBy)
	assert.Contains(t, git.Error, "refusing to run")
	assert.Nil(t, git.Source, "a mismatching binary is not run to describe it")

	tmpl := rows["builtin:template pinned-ok"]
	assert.Equal(t, []string{"agent writer"}, tmpl.UsedBy)
	assert.Empty(t, tmpl.Error)
	require.NotNil(t, tmpl.Agent)
	assert.Contains(t, tmpl.Agent.Roles, "writer")
	assert.NotEmpty(t, tmpl.Version())

	jsonl := rows["jsonl unpinned"]
	assert.Equal(t, []string{"source events"}, jsonl.UsedBy)
	assert.Equal(t, bin, jsonl.Path)
	assert.False(t, jsonl.Builtin)
	require.NotNil(t, jsonl.Source, jsonl.Error)
	assert.Nil(t, jsonl.Agent)

	_, listed := rows["builtin:git unpinned"]
	assert.False(t, listed, "a pinned built-in is listed once, with its pin")
}

func TestPluginsText(t *testing.T) {
	dir := t.TempDir()
	rulesPath := writeRules(t, dir, `
nous {
  version = 1
}
agent "writer" {
  plugin = "builtin:template"
}
`)
	code, out, stderr := runCLI(t, "", "plugins", "--rules", rulesPath)
	assert.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, out)
	assert.Regexp(t, `(?m)^NAME\s+REF\s+VERSION\s+SERVES\s+CHECKSUM\s+USED BY\s+PATH$`, out)
	assert.Regexp(t, `(?m)^template\s+builtin:template\s+\S+\s+agent \(.*writer.*\)\s+unpinned\s+agent writer\s+/`, out)
	assert.Contains(t, out, "searched for nous-plugin-NAME in: ")
}

func TestPluginsUsage(t *testing.T) {
	code, _, stderr := runCLI(t, "", "plugins", "--format", "yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `--format: want text or json, got "yaml"`)
}

func TestPluginServeUnknownBuiltin(t *testing.T) {
	code, _, stderr := runCLI(t, "", "plugin", "serve", "gitlub")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `no built-in plugin "gitlub"; built-ins are: `)
	assert.Contains(t, stderr, "template")
}

func TestPluginSpecsFromRules(t *testing.T) {
	dir := t.TempDir()
	rs, diags := rules.Load(writeRules(t, dir, `
nous {
  version = 1
}
source "events" {
  plugin = "./bin/nous-plugin-jsonl"
  sha256 = "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789"
  config = { path = "events.jsonl", tier = 2 }
}
agent "writer" {
  plugin  = "builtin:template"
  timeout = "45s"
}
`))
	require.False(t, diags.HasErrors(), diags.Error())
	specs, err := pluginSpecs(rs)
	require.NoError(t, err)
	require.Len(t, specs, 2)

	assert.Equal(t, "events", specs[0].Name)
	assert.Equal(t, plugin.KindSource, specs[0].Kind)
	assert.Equal(t, filepath.Join(dir, "bin", "nous-plugin-jsonl"), specs[0].Ref, "relative to the rules file")
	assert.Equal(t, "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789", specs[0].SHA256)
	assert.JSONEq(t, `{"path":"events.jsonl","tier":2}`, string(specs[0].Config))

	assert.Equal(t, plugin.KindAgent, specs[1].Kind)
	assert.Equal(t, "builtin:template", specs[1].Ref)
	assert.Equal(t, 45*time.Second, specs[1].Timeout)
	assert.JSONEq(t, `{}`, string(specs[1].Config))
}

func TestPluginRef(t *testing.T) {
	dir := t.TempDir()
	rulesFile := writeRules(t, dir, "")
	tests := []struct{ ref, file, want string }{
		{"builtin:git", rulesFile, "builtin:git"},
		{"jsonl", rulesFile, "jsonl"},
		{"/opt/nous-plugin-x", rulesFile, "/opt/nous-plugin-x"},
		{"./bin/nous-plugin-x", rulesFile, filepath.Join(dir, "bin", "nous-plugin-x")},
		{"./bin/nous-plugin-x", "embedded/sources.hcl", "./bin/nous-plugin-x"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, pluginRef(tt.ref, tt.file), "%s in %s", tt.ref, tt.file)
	}

	t.Chdir(dir) // rules in the working directory: the path must stay a path
	assert.Equal(t, "./nous-plugin-x", pluginRef("./nous-plugin-x", "nous.hcl"))
}

// TestPluginsTextIsTerminalSafe lists a plugin that dies printing an escape
// sequence: the text listing quotes its last words with the control
// characters neutralised, as ask and fetch do for records.
func TestPluginsTextIsTerminalSafe(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\nprintf '\\033]0;pwned\\007 cannot start\\n' >&2\nexit 1\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, plugin.BinaryPrefix+"evil"), []byte(script), 0o755))
	rulesPath := writeRules(t, t.TempDir(), "nous {\n  version = 1\n}\n")
	code, out, stderr := runCLI(t, "", "plugins", "--rules", rulesPath, "--plugin-dir", dir)
	assert.Equal(t, exitFindings, code, stderr)
	assert.Contains(t, out, "]0;pwned\uFFFD cannot start", "the plugin's last stderr line is quoted")
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\a")
}
