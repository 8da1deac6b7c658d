package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nous-dev/nous/engine/history"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Runs with one fixed clock, in parallel and into one --log-dir, each get a
// directory of their own holding only their own files.
func TestAskParallelRunsGetTheirOwnLogDirs(t *testing.T) {
	const runs = 8
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	logs := t.TempDir()
	exe, err := os.Executable()
	require.NoError(t, err)

	var wg sync.WaitGroup
	errs := make([]error, runs)
	stderr := make([]bytes.Buffer, runs)
	for i := range runs {
		wg.Go(func() {
			cmd := exec.Command(exe, "ask", "--rules", rules, "--log-dir", logs, "which commits were pushed last week?")
			cmd.Env = append(os.Environ(), envAsNous+"=1", envNow+"="+askNow)
			cmd.Stderr = &stderr[i]
			errs[i] = cmd.Run()
		})
	}
	wg.Wait()
	for i := range runs {
		require.NoError(t, errs[i], stderr[i].String())
	}

	dirs, err := os.ReadDir(logs)
	require.NoError(t, err)
	require.Len(t, dirs, runs, "one directory per run")
	want := []string{"history.json", "iteration_1_analyst_h2.json", "iteration_1_critic_h2.json", "iteration_1_validator_pass1.json", "iteration_1_writer_h2.json", "session_summary.json"}
	for _, d := range dirs {
		files, err := os.ReadDir(filepath.Join(logs, d.Name()))
		require.NoError(t, err)
		var names []string
		for _, f := range files {
			names = append(names, f.Name())
		}
		assert.Equal(t, want, names, "%s holds only its own run's files", d.Name())
		var h history.History
		b, err := os.ReadFile(filepath.Join(logs, d.Name(), "history.json"))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &h))
		assert.Equal(t, d.Name(), h.ExecutionID, "the directory is named after its run")
		for f, step := range map[string]string{want[1]: "h2", want[2]: "h2", want[3]: "pass1", want[4]: "h2"} {
			var call history.AgentCall
			b, err := os.ReadFile(filepath.Join(logs, d.Name(), f))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &call))
			assert.Equal(t, step, call.Step)
		}
	}
}
