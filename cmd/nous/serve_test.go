package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// served is a `nous serve` process: the test binary run as nous.
type served struct {
	url    string
	cmd    *exec.Cmd
	stderr *lockedBuffer
	exited chan error
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServe runs `nous serve --addr 127.0.0.1:0 args…` with the fixed
// clock and returns once it listens.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), envNow+"="+askNow)
	return listen(t, cmd)
}

// listen starts cmd, a `nous serve`, and returns once it listens; the
// test's end stops it with SIGTERM.
func listen(t testing.TB, cmd *exec.Cmd) *served {
	t.Helper()
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	s := &served{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-s.exited
	})
	r := bufio.NewReader(pipe)
	for s.url == "" {
		line, err := r.ReadString('\n')
		_, _ = s.stderr.Write([]byte(line))
		if err != nil {
			_ = cmd.Process.Kill()
			s.exited <- cmd.Wait()
			require.NoError(t, err, "nous serve ended before it listened: %s", s.stderr)
		}
		if rest, ok := strings.CutPrefix(line, "nous: serving on "); ok {
			s.url, _, _ = strings.Cut(rest, " ")
		}
	}
	go func() {
		_, _ = io.Copy(s.stderr, r)
		s.exited <- cmd.Wait()
	}()
	return s
}

// ask posts a question and returns the status code and body.
func (s *served) ask(t testing.TB, query, format string, header ...string) (int, string) {
	code, body, err := s.post(query, format, header...)
	assert.NoError(t, err, s.stderr)
	return code, body
}

// post asks query of the server: any goroutine may call it.
func (s *served) post(query, format string, header ...string) (int, string, error) {
	body, err := json.Marshal(map[string]string{"query": query, "format": format})
	if err != nil {
		return 0, "", err
	}
	req, err := http.NewRequest("POST", s.url+"/v1/ask", bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), err
}

// children lists the PIDs of pid's child processes whose command line
// contains what (Linux: /proc).
func children(t testing.TB, pid int, what string) []int {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("child processes are listed from /proc")
	}
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so parse after ')'.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(pid) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if strings.Contains(strings.ReplaceAll(string(cmdline), "\x00", " "), what) {
			out = append(out, child)
		}
	}
	return out
}

// alive reports whether pid is a process that has not exited.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// serveQuestions are distinct questions over the ask fixtures' repository
// and issues.
func serveQuestions(n int) []string {
	base := []string{"how many open issues are there?", "what is the status of the project?", "what changed in this repository last week?"}
	out := base
	for i := 1; len(out) < n; i++ {
		out = append(out, fmt.Sprintf("what changed in the last %d days?", i))
	}
	return out[:n]
}

func TestServeAnswersConcurrentAsksAsAskDoes(t *testing.T) {
	withoutTokens(t)
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add gateway retry": "2026-11-05T15:00:00Z",
		"Bump the parser": "2026-10-20T09:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	questions := serveQuestions(50)
	want := make([]string, len(questions))
	for i, q := range questions {
		out, stderr, code := runAsk(t, "--rules", rules, "--format", "text", q)
		require.Contains(t, []int{exitOK, exitFindings}, code, stderr)
		want[i] = out
	}
	s := startServe(t, "--rules", rules, "--max-runs", "8", "--queue", "64")
	var wg sync.WaitGroup
	for i, q := range questions {
		wg.Go(func() {
			code, body := s.ask(t, q, "text")
			assert.Equal(t, http.StatusOK, code)
			assert.Equal(t, want[i], body, "question %d: %s", i, q)
		})
	}
	wg.Wait()
}

func TestServeSurvivesAKilledPlugin(t *testing.T) {
	withoutTokens(t)
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	const commits, issues = "what changed in this repository last week?", "how many open issues are there?"
	wantCommits, stderr, code := runAsk(t, "--rules", rules, "--format", "text", commits)
	require.Equal(t, exitOK, code, stderr)
	wantIssues, stderr, code := runAsk(t, "--rules", rules, "--format", "text", issues)
	require.Equal(t, exitOK, code, stderr)

	s := startServe(t, "--rules", rules)
	code, body := s.ask(t, commits, "text")
	require.Equal(t, http.StatusOK, code, body)
	git := children(t, s.cmd.Process.Pid, "plugin serve git")
	require.Len(t, git, 1, "one git plugin process")
	require.NoError(t, syscall.Kill(git[0], syscall.SIGKILL))

	var wg sync.WaitGroup
	wg.Go(func() {
		code, body := s.ask(t, commits, "text") // the run on the killed plugin: any honest status
		assert.Equal(t, http.StatusOK, code, body)
	})
	wg.Go(func() {
		code, body := s.ask(t, issues, "text")
		assert.Equal(t, http.StatusOK, code)
		assert.Equal(t, wantIssues, body, "a run on another plugin is not affected")
	})
	wg.Wait()
	code, body = s.ask(t, commits, "text")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, wantCommits, body, "the next run works")
	restarted := children(t, s.cmd.Process.Pid, "plugin serve git")
	require.Len(t, restarted, 1)
	assert.NotEqual(t, git[0], restarted[0], "the plugin was restarted")
}

func TestServeSIGTERMEndsRunsWithTheirHistory(t *testing.T) {
	withoutTokens(t)
	logDir := t.TempDir()
	rules := askRules(t, t.TempDir(), askIssues(t, askDefaultIssues...), "")
	// The repository's source hangs until its fetch is cancelled.
	sources := filepath.Join(rules, "sources.hcl")
	b, err := os.ReadFile(sources)
	require.NoError(t, err)
	b = bytes.Replace(b, []byte(`plugin   = "builtin:git"`), []byte(`plugin   = `+askQuote(testPlugin(t, "hanging"))), 1)
	require.NoError(t, os.WriteFile(sources, b, 0o644))

	s := startServe(t, "--rules", rules, "--grace", "50ms", "--log-dir", logDir)
	const runs = 3
	results := make(chan string, runs)
	for range runs {
		go func() {
			_, body, err := s.post("what changed in this repository last week?", "json", "Accept", "text/event-stream")
			if err != nil {
				body = err.Error()
			}
			results <- body
		}()
	}
	for running := 0; running < runs; {
		resp, err := http.Get(s.url + "/v1/runs")
		require.NoError(t, err)
		var list struct{ Runs []struct{ Status string } }
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
		resp.Body.Close()
		running = 0
		for _, r := range list.Runs {
			if r.Status == "running" {
				running++
			}
		}
	}
	plugins := children(t, s.cmd.Process.Pid, "")
	require.NotEmpty(t, plugins)
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	for range runs {
		body := <-results
		var result struct {
			Result struct {
				Status      string
				ExecutionID string `json:"execution_id"`
			}
		}
		last := body[strings.LastIndex(body, "event: result\n"):]
		data := strings.ReplaceAll(strings.TrimPrefix(last, "event: result\n"), "data: ", "")
		require.NoError(t, json.Unmarshal([]byte(data), &result), body)
		assert.Equal(t, "cancelled", result.Result.Status)
		assert.FileExists(t, filepath.Join(logDir, result.Result.ExecutionID, "history.json"), "the partial history is saved")
	}
	require.NoError(t, <-s.exited, s.stderr.String())
	s.exited <- nil // for the cleanup
	_, err = net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	assert.Error(t, err, "the port is closed")
	for _, pid := range plugins {
		assert.False(t, alive(pid), "plugin process %d is left behind", pid)
	}
}

func TestServeRefusesAnOpenAddressWithoutAToken(t *testing.T) {
	t.Setenv("NOUS_SERVE_TOKEN", "")
	var out, errb bytes.Buffer
	code := run([]string{"serve", "--addr", "0.0.0.0:0"}, strings.NewReader(""), &out, &errb)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errb.String(), "not loopback: give a token")
}

// nlwebGet asks the NLWeb endpoint of s with params and returns the status and body.
func (s *served) nlwebGet(t *testing.T, params url.Values) (int, string) {
	t.Helper()
	resp, err := http.Get(s.url + "/ask?" + params.Encode())
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

func TestServeNLWeb(t *testing.T) {
	rules, _ := sessionRepo(t, "")
	// What a session gives for the follow-up is what prev gives.
	_, stderr, code := runAsk(t, "--rules", rules, "--session", "t1", "what changed last week?")
	require.Equal(t, 0, code, stderr)
	session, stderr, code := runAsk(t, "--rules", rules, "--session", "t1", "--format", "nlweb", "and the week before?")
	require.Equal(t, 0, code, stderr)
	alone, stderr, code := runAsk(t, "--rules", rules, "--format", "nlweb", "what changed last week?")
	require.Equal(t, 0, code, stderr)
	s := startServe(t, "--rules", rules)

	t.Run("non-streaming: the Items of nous ask --format nlweb", func(t *testing.T) {
		code, body := s.nlwebGet(t, url.Values{"query": {"what changed last week?"}, "site": {"all"}, "streaming": {"false"}})
		require.Equal(t, http.StatusOK, code, body)
		var out struct {
			QueryID string          `json:"query_id"`
			Results json.RawMessage `json:"results"`
		}
		require.NoError(t, json.Unmarshal([]byte(body), &out))
		assert.NotEmpty(t, out.QueryID)
		assert.JSONEq(t, alone, string(out.Results))
	})

	t.Run("prev is the conversation", func(t *testing.T) {
		code, body := s.nlwebGet(t, url.Values{"query": {"and the week before?"}, "prev": {"what changed last week?"}, "streaming": {"false"}})
		require.Equal(t, http.StatusOK, code, body)
		var out struct{ Results []map[string]any }
		require.NoError(t, json.Unmarshal([]byte(body), &out))
		require.NotEmpty(t, out.Results)
		report := out.Results[0]["description"].(string)
		assert.Contains(t, report, "Follow-up of “what changed last week?” (earlier question 1): took intent query_commits; "+
			"dates 2026-10-26..2026-11-01 (the week before, from 2026-11-02 – 2026-11-08)")
		assert.Contains(t, report, "Rewrite the lexer", "the week before's commit")
		var want []map[string]any
		require.NoError(t, json.Unmarshal([]byte(session), &want))
		assert.Equal(t, strings.Replace(want[0]["description"].(string), "(session t1, turn 1)", "(earlier question 1)", 1), report,
			"the same answer as the session's follow-up")
	})

	t.Run("streaming ends with the Items and complete", func(t *testing.T) {
		code, body := s.nlwebGet(t, url.Values{"query": {"what changed last week?"}, "query_id": {"q42"}})
		require.Equal(t, http.StatusOK, code, body)
		var kinds []string
		for line := range strings.Lines(body) {
			data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: ")
			if !ok {
				continue
			}
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(data), &m))
			assert.Equal(t, "q42", m["query_id"])
			kinds = append(kinds, m["message_type"].(string))
			if m["message_type"] == "result_batch" {
				results, err := json.Marshal(m["results"])
				require.NoError(t, err)
				assert.JSONEq(t, alone, string(results))
			}
		}
		assert.Contains(t, kinds, "intermediate_message")
		assert.Equal(t, []string{"result_batch", "complete"}, kinds[len(kinds)-2:])
	})
}
