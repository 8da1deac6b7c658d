//go:build temporal

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/nous-dev/nous/engine/durable"
	"github.com/nous-dev/nous/engine/durable/devserver"
)

// worker is a `nous worker` process.
type worker struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer
	exited chan error
}

// startWorker runs `nous worker --temporal hostPort --rules rules` and
// returns once it serves; the test's end stops it with SIGTERM.
func startWorker(t *testing.T, hostPort, rules string) *worker {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "worker", "--temporal", hostPort, "--rules", rules)
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	w := &worker{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	r := bufio.NewReader(pipe)
	for {
		line, err := r.ReadString('\n')
		_, _ = w.stderr.Write([]byte(line))
		if err != nil {
			_ = cmd.Process.Kill()
			require.NoError(t, err, "nous worker ended before it served: %s", w.stderr)
		}
		if strings.HasPrefix(line, "nous: worker on ") {
			break
		}
	}
	go func() {
		_, _ = io.Copy(w.stderr, r)
		w.exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-w.exited
	})
	return w
}

// runIDs are the parts of a run's JSON that name or time this run only.
var runIDs = regexp.MustCompile(`"(execution_id|interaction_id)": "[^"]*"|"duration_ms": \d+`)

// sameRun reports the JSON of a run without what names or times it alone.
func sameRun(t *testing.T, out string) string {
	t.Helper()
	require.True(t, json.Valid([]byte(out)), "JSON output: %s", out)
	return runIDs.ReplaceAllString(out, "")
}

// durableRepo is a repository and rules for the durable tests.
func durableRepo(t *testing.T) (repo, rules string) {
	repo = askRepo(t, map[string]string{
		"Fix refund rounding":     "2026-11-03T10:00:00Z",
		"Add payments retries":    "2026-11-05T10:00:00Z",
		"Document the refund API": "2026-11-06T10:00:00Z",
		"Bump the gateway client": "2026-10-01T10:00:00Z",
	})
	return repo, askRules(t, repo, askIssues(t, askDefaultIssues...), "")
}

// workflowOf is the durable run a `nous ask --temporal` names on stderr.
func workflowOf(t *testing.T, stderr string) string {
	t.Helper()
	m := regexp.MustCompile(`nous: durable run (\S+) on `).FindStringSubmatch(stderr)
	require.NotNil(t, m, "stderr names the run: %s", stderr)
	return m[1]
}

func TestDurableAskAnswersAsInMemory(t *testing.T) {
	withoutTokens(t)
	srv := devserver.Start(t)
	repo, rules := durableRepo(t)
	startWorker(t, srv.HostPort, rules)
	startWorker(t, srv.HostPort, rules) // two: either may take any part of a run

	for _, q := range []string{
		"what changed in this repository last week?",
		"how many open issues are there?",
		"who changed the most this month?",
	} {
		t.Run(q, func(t *testing.T) {
			want, _, wantCode := runAsk(t, "--rules", rules, "--format", "json", q)
			got, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "--temporal", srv.HostPort, q)
			assert.Equal(t, wantCode, code, stderr)
			assert.Equal(t, sameRun(t, want), sameRun(t, got), "the plan, result, history and trace are the in-memory run's")

			// The run's history replays to the same report, calling no plugin.
			hist := filepath.Join(t.TempDir(), "history.json")
			saveHistory(t, srv.HostPort, workflowOf(t, stderr), hist)
			var out, errb strings.Builder
			code = run([]string{"replay", "--rules", rules, "--format", "json", hist}, strings.NewReader(""), &out, &errb)
			require.Equal(t, 0, code, errb.String())
			assert.Equal(t, got, out.String(), "nous replay renders the run's report again")
		})
	}

	t.Run("text output and exit", func(t *testing.T) {
		want, _, wantCode := runAsk(t, "--rules", rules, "what changed in this repository last week?")
		got, _, code := runAsk(t, "--rules", rules, "--temporal", srv.HostPort, "what changed in this repository last week?")
		assert.Equal(t, wantCode, code)
		assert.Equal(t, want, got)
	})
	t.Run("a mode the rules lack is a usage error before anything starts", func(t *testing.T) {
		_, stderr, code := runAsk(t, "--rules", rules, "--temporal", srv.HostPort, "--mode", "nosuch", "what changed?")
		assert.Equal(t, exitUsage, code, stderr)
	})
	t.Run("rules other than the workers' are refused", func(t *testing.T) {
		other := askRules(t, repo, askIssues(t, askDefaultIssues...), "# edited since the workers started\n")
		_, stderr, code := runAsk(t, "--rules", other, "--temporal", srv.HostPort, "what changed last week?")
		assert.Equal(t, exitFindings, code, stderr)
		assert.Contains(t, stderr, "but this worker has rules")
	})
}

// saveHistory writes the history of workflow id as `temporal workflow
// show --output json` does.
func saveHistory(t *testing.T, hostPort, id, path string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := durable.Dial(ctx, durable.Options{HostPort: hostPort}, client.Options{})
	require.NoError(t, err)
	defer c.Close()
	h, err := durable.History(ctx, c, id)
	require.NoError(t, err)
	b, err := protojson.Marshal(h)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

func TestDurableRunSurvivesAKilledWorker(t *testing.T) {
	withoutTokens(t)
	srv := devserver.Start(t)
	gate := t.TempDir()
	_, rules := durableRepo(t)
	sources := filepath.Join(rules, "sources.hcl")
	b, err := os.ReadFile(sources)
	require.NoError(t, err)
	// The commits' source hangs on its first fetch, wherever it runs.
	b = []byte(strings.Replace(string(b), `plugin   = "builtin:git"`, `plugin   = `+askQuote(testPlugin(t, "once-hanging")), 1))
	b = []byte(regexp.MustCompile(`config   = \{ path = "[^"]*" \}`).ReplaceAllString(string(b), `config   = { dir = `+askQuote(gate)+` }`))
	require.NoError(t, os.WriteFile(sources, b, 0o644))

	first := startWorker(t, srv.HostPort, rules)
	type answer struct {
		out, stderr string
		code        int
	}
	done := make(chan answer, 1)
	t.Setenv(envNow, askNow)
	go func() {
		var out, errb strings.Builder
		code := run([]string{"ask", "--rules", rules, "--temporal", srv.HostPort, "what changed in this repository last week?"}, strings.NewReader(""), &out, &errb)
		done <- answer{out.String(), errb.String(), code}
	}()
	require.Eventually(t, func() bool { _, err := os.Stat(filepath.Join(gate, "taken")); return err == nil }, time.Minute, 50*time.Millisecond,
		"the first worker's source is fetching")
	startWorker(t, srv.HostPort, rules)
	require.NoError(t, first.cmd.Process.Kill())

	a := <-done
	assert.Equal(t, 0, a.code, a.stderr)
	assert.Contains(t, a.out, "Commit 4", "the fetch was retried on the second worker and answered")
	assert.Contains(t, a.out, "Status: success")
}
