package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mcpFixture is a repository with commits of last week and the default
// rules pointing at it and at a file of issues.
func mcpFixture(t testing.TB) (rules string) {
	t.Helper()
	withoutTokens(t)
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add gateway retry": "2026-11-05T15:00:00Z",
		"Bump the parser": "2026-10-20T09:00:00Z"})
	return askRules(t, repo, askIssues(t, askDefaultIssues...), "")
}

// progressMessages collects what progress notifications say.
type progressMessages struct {
	mu   sync.Mutex
	msgs []string
}

func (p *progressMessages) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, req.Params.Message)
}

func (p *progressMessages) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.msgs...)
}

// through returns the messages once the last one starts with prefix, or
// as they are after 10 s. The client handles notifications in order but
// on a goroutine of their own, so a tool's result can come back before
// the notifications sent ahead of it have been handled.
func (p *progressMessages) through(prefix string) []string {
	deadline := time.Now().Add(10 * time.Second)
	for {
		msgs := p.all()
		if (len(msgs) > 0 && strings.HasPrefix(msgs[len(msgs)-1], prefix)) || time.Now().After(deadline) {
			return msgs
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// mcpClient connects an MCP client over transport.
func mcpClient(t testing.TB, transport mcp.Transport, progress *progressMessages) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = progress.handle
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "nous-test", Version: "test"}, opts).Connect(context.Background(), transport, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// stdioClient starts `nous mcp args…` (the test binary run as nous) with
// the fixed clock and connects to it over its stdin and stdout.
func stdioClient(t testing.TB, progress *progressMessages, args ...string) *mcp.ClientSession {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, append([]string{"mcp"}, args...)...)
	cmd.Env = append(os.Environ(), envNow+"="+askNow)
	cmd.Stderr = &lockedBuffer{}
	return mcpClient(t, &mcp.CommandTransport{Command: cmd}, progress)
}

// bearer adds a token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// httpTransport reaches /mcp of s with token.
func httpTransport(s *served, token string) mcp.Transport {
	return &mcp.StreamableClientTransport{Endpoint: s.url + "/mcp", HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
}

func mcpText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var parts []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		require.True(t, ok, "content %T", c)
		parts = append(parts, tc.Text)
	}
	return strings.Join(parts, "\n")
}

func mcpCall(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, meta mcp.Meta) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args, Meta: meta})
	require.NoError(t, err)
	return res
}

// checkTools calls every tool over cs and checks each answers as the
// command it stands for: ask's report is what `nous ask --format markdown`
// prints, with progress on the way.
func checkTools(t *testing.T, cs *mcp.ClientSession, progress *progressMessages, rules string) {
	tools, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		assert.NotNil(t, tool.OutputSchema, tool.Name)
	}
	assert.ElementsMatch(t, []string{"ask", "plan", "fetch", "lint"}, names)

	const question = "which commits were pushed last week?"
	want, stderr, code := runAsk(t, "--rules", rules, "--format", "markdown", question)
	require.Equal(t, exitOK, code, stderr)
	res := mcpCall(t, cs, "ask", map[string]any{"query": question}, mcp.Meta{"progressToken": "t1"})
	require.False(t, res.IsError, mcpText(t, res))
	assert.Equal(t, want, mcpText(t, res))
	assert.Contains(t, mcpText(t, res), "Fix refund rounding")
	var out struct {
		RunID  string `json:"run_id"`
		Status string
		Result struct{ Result struct{ Status string } }
	}
	remarshalTo(t, res.StructuredContent, &out)
	assert.Equal(t, "success", out.Status)
	assert.Equal(t, out.Status, out.Result.Result.Status)
	msgs := progress.through("run " + out.Status)
	require.NotEmpty(t, msgs, "progress notifications")
	assert.Equal(t, "run "+out.RunID+" started", msgs[0])
	assert.Equal(t, "run success", strings.SplitN(msgs[len(msgs)-1], ":", 2)[0])

	plan := mcpCall(t, cs, "plan", map[string]any{"query": question}, nil)
	require.False(t, plan.IsError, mcpText(t, plan))
	var planOut, stdout strings.Builder
	require.Equal(t, exitOK, run([]string{"plan", "--rules", rules, "--format", "text", question}, strings.NewReader(""), &stdout, &planOut), planOut.String())
	assert.Equal(t, stdout.String(), mcpText(t, plan), "the text is what nous plan prints")

	fetched := mcpCall(t, cs, "fetch", map[string]any{"source": "gitlab", "dates": "2026-11-01..2026-11-09"}, nil)
	require.False(t, fetched.IsError, mcpText(t, fetched))
	assert.Contains(t, mcpText(t, fetched), "2 record(s) from gitlab")
	assert.Contains(t, mcpText(t, fetched), "Add gateway retry")
	assert.NotContains(t, mcpText(t, fetched), "Bump the parser", "outside the dates")

	linted := mcpCall(t, cs, "lint", map[string]any{"files": []any{map[string]any{"name": "m.hcl", "content": "mode \"m\" {\n  on_empty = 1\n"}}}, nil)
	require.False(t, linted.IsError, mcpText(t, linted))
	assert.Contains(t, mcpText(t, linted), "on m.hcl line")

	bad := mcpCall(t, cs, "fetch", map[string]any{"source": "gitlab", "limit": -1}, nil)
	assert.True(t, bad.IsError)
	assert.Contains(t, mcpText(t, bad), "limit")
}

func remarshalTo(t *testing.T, from, to any) {
	t.Helper()
	data, err := json.Marshal(from)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, to))
}

func TestMCPOverStdioAnswersAsTheCommands(t *testing.T) {
	rules := mcpFixture(t)
	var progress progressMessages
	checkTools(t, stdioClient(t, &progress, "--rules", rules), &progress, rules)
}

func TestMCPOverHTTPAnswersAsTheCommandsBehindTheToken(t *testing.T) {
	rules := mcpFixture(t)
	s := startServe(t, "--rules", rules, "--token", "s3cret-token")
	var progress progressMessages
	checkTools(t, mcpClient(t, httpTransport(s, "s3cret-token"), &progress), &progress, rules)

	for _, token := range []string{"", "wrong"} {
		_, err := mcp.NewClient(&mcp.Implementation{Name: "nous-test", Version: "test"}, nil).Connect(context.Background(), httpTransport(s, token), nil)
		require.Error(t, err, "token %q", token)
		assert.Contains(t, err.Error(), "Unauthorized")
	}
}

func TestMCPCancelledAskEndsTheRunCancelled(t *testing.T) {
	withoutTokens(t)
	logDir := t.TempDir()
	rules := askRules(t, t.TempDir(), askIssues(t, askDefaultIssues...), "")
	// The repository's source hangs until its fetch is cancelled.
	sources := filepath.Join(rules, "sources.hcl")
	b, err := os.ReadFile(sources)
	require.NoError(t, err)
	b = []byte(strings.Replace(string(b), `plugin   = "builtin:git"`, `plugin   = `+askQuote(testPlugin(t, "hanging")), 1))
	require.NoError(t, os.WriteFile(sources, b, 0o644))
	s := startServe(t, "--rules", rules, "--log-dir", logDir)
	cs := mcpClient(t, httpTransport(s, ""), nil)

	ctx, cancel := context.WithCancel(context.Background())
	called := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"query": "what changed in this repository last week?"}})
		called <- err
	}()
	run := waitForRun(t, s, "running")
	cancel()
	require.ErrorIs(t, <-called, context.Canceled)
	ended := waitForRun(t, s, "cancelled")
	assert.Equal(t, run, ended)
	assert.FileExists(t, filepath.Join(logDir, run, "history.json"), "the partial history is saved")
}

// waitForRun polls GET /v1/runs until the one run there has status, and
// returns its ID.
func waitForRun(t *testing.T, s *served, status string) string {
	t.Helper()
	for {
		resp, err := http.Get(s.url + "/v1/runs")
		require.NoError(t, err)
		var list struct{ Runs []struct{ ID, Status string } }
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
		resp.Body.Close()
		if len(list.Runs) == 1 && list.Runs[0].Status == status {
			return list.Runs[0].ID
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An assistant launches nous mcp from a directory of its own: --dir names
// the repository, and the embedded default rules read it, not the
// directory the process started in (here, nous's own source tree).
func TestMCPDirNamesTheRepository(t *testing.T) {
	withoutTokens(t)
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z"})
	cs := stdioClient(t, nil, "--dir", repo)
	res := mcpCall(t, cs, "ask", map[string]any{"query": "which commits were pushed last week?"}, nil)
	require.False(t, res.IsError, mcpText(t, res))
	assert.Contains(t, mcpText(t, res), "Fix refund rounding")
	assert.Contains(t, mcpText(t, res), "1 commit")

	exe, err := os.Executable()
	require.NoError(t, err)
	out, err := exec.Command(exe, "mcp", "--dir", filepath.Join(repo, "missing")).CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, exitUsage, exit.ExitCode())
	assert.Contains(t, string(out), "mcp: --dir: chdir "+filepath.Join(repo, "missing")+": no such file or directory")
}

// nous mcp takes the service's limits as nous serve does.
func TestMCPLimitsAreChecked(t *testing.T) {
	for _, args := range [][]string{{"--max-runs", "0"}, {"--queue", "-1"}} {
		var stdout, stderr strings.Builder
		code := run(append([]string{"mcp"}, args...), strings.NewReader(""), &stdout, &stderr)
		assert.Equal(t, exitUsage, code, args)
		assert.Contains(t, stderr.String(), args[0], "the message names the flag")
	}
}
