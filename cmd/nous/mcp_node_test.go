package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mcpClientDir holds the TypeScript client script and its pinned packages.
var mcpClientDir = filepath.Join("testdata", "mcpclient")

// tsReport is what client.mjs prints.
type tsReport struct {
	Tools []struct {
		Name, Description string
		Required          []string
		OutputSchema      bool
	}
	Ask struct {
		IsError    bool
		Text       string
		Structured struct {
			RunID  string `json:"run_id"`
			Status string
		}
		Progress []string
	}
	Plan, Fetch, Lint struct {
		IsError    bool
		Text       string
		Structured json.RawMessage
	}
	Bad struct {
		IsError bool
		Text    string
	}
}

// node is the node command and the client script's directory, or a skip
// saying what is missing.
func node(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the official TypeScript MCP client cannot run")
	}
	if _, err := os.Stat(filepath.Join(mcpClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skipf("the TypeScript MCP SDK is not installed: run `npm ci` in cmd/nous/%s (.ci/run does): %v", filepath.ToSlash(mcpClientDir), err)
	}
	return bin
}

// runTSClient runs client.mjs with config and returns its report.
func runTSClient(t *testing.T, bin string, config map[string]any) tsReport {
	t.Helper()
	arg, err := json.Marshal(config)
	require.NoError(t, err)
	cmd := exec.Command(bin, "client.mjs", string(arg))
	cmd.Dir = mcpClientDir
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node client.mjs: %s", stderr.String())
	var r tsReport
	require.NoError(t, json.Unmarshal(out, &r), "%s", out)
	return r
}

// checkTSReport checks what the TypeScript client got against what the
// commands print for the same rules.
func checkTSReport(t *testing.T, r tsReport, rules, question string) {
	t.Helper()
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name)
		assert.NotEmpty(t, tool.Description, tool.Name)
		assert.True(t, tool.OutputSchema, tool.Name)
	}
	assert.ElementsMatch(t, []string{"ask", "plan", "fetch", "lint"}, names)

	want, stderr, code := runAsk(t, "--rules", rules, "--format", "markdown", question)
	require.Equal(t, exitOK, code, stderr)
	assert.False(t, r.Ask.IsError)
	assert.Equal(t, want, r.Ask.Text)
	assert.Equal(t, "success", r.Ask.Structured.Status)
	require.NotEmpty(t, r.Ask.Progress, "progress notifications reach the client")
	assert.Equal(t, "run "+r.Ask.Structured.RunID+" started", r.Ask.Progress[0])

	var plan, planErr strings.Builder
	require.Equal(t, exitOK, run([]string{"plan", "--rules", rules, "--format", "text", question}, strings.NewReader(""), &plan, &planErr), planErr.String())
	assert.False(t, r.Plan.IsError)
	assert.Equal(t, plan.String(), r.Plan.Text)

	assert.False(t, r.Fetch.IsError, r.Fetch.Text)
	assert.Contains(t, r.Fetch.Text, "3 record(s) from gitlab")
	var fetched struct{ Records []struct{ Title string } }
	require.NoError(t, json.Unmarshal(r.Fetch.Structured, &fetched))
	assert.Len(t, fetched.Records, 3)

	assert.False(t, r.Lint.IsError)
	var lint struct {
		Errors      int
		Diagnostics []struct {
			File string
			Line int
		}
	}
	require.NoError(t, json.Unmarshal(r.Lint.Structured, &lint))
	assert.Equal(t, 1, lint.Errors)
	require.Len(t, lint.Diagnostics, 1)
	assert.Equal(t, "modes.hcl", lint.Diagnostics[0].File)
	assert.Equal(t, 2, lint.Diagnostics[0].Line)
	assert.Contains(t, r.Lint.Text, "on modes.hcl line 2")

	assert.True(t, r.Bad.IsError)
	assert.Contains(t, r.Bad.Text, "mode")
}

func TestMCPWithTheTypeScriptClientOverStdio(t *testing.T) {
	bin := node(t)
	rules := mcpFixture(t)
	exe, err := os.Executable()
	require.NoError(t, err)
	const question = "which commits were pushed last week?"
	r := runTSClient(t, bin, map[string]any{"transport": "stdio", "command": exe, "args": []string{"mcp", "--rules", rules},
		"env": map[string]string{envAsNous: "1", envNow: askNow, "PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")}, "question": question})
	checkTSReport(t, r, rules, question)
}

func TestMCPWithTheTypeScriptClientOverHTTP(t *testing.T) {
	bin := node(t)
	rules := mcpFixture(t)
	s := startServe(t, "--rules", rules, "--token", "ts-client-token")
	const question = "which commits were pushed last week?"
	r := runTSClient(t, bin, map[string]any{"transport": "http", "url": s.url + "/mcp", "token": "ts-client-token", "question": question})
	checkTSReport(t, r, rules, question)
}
