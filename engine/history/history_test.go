package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk/redact"
)

func TestReportCounts(t *testing.T) {
	var r Report
	r.Add(Finding{Check: "a", Severity: SeverityPass})
	r.Add(Finding{Check: "b", Severity: SeverityWarn})
	r.Add(Finding{Check: "c", Severity: SeverityFail})
	r.Add(Finding{Check: "d", Severity: SeverityFail})
	assert.Equal(t, 1, r.Passed)
	assert.Equal(t, 1, r.Warnings)
	assert.Equal(t, 2, r.Failed)
	assert.Len(t, r.Findings, 4)
}

func TestDirLayout(t *testing.T) {
	root := t.TempDir()
	at := time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)
	d, err := NewDir(root, "run-1", redact.New("sk-123"))
	require.NoError(t, err)
	require.NoError(t, d.LogAgent(AgentCall{Iteration: 1, Step: "h2", Role: "analyst", Attempt: 1, InputPrompt: "key sk-123", Timestamp: at}))
	require.NoError(t, d.LogAgent(AgentCall{Iteration: 2, Step: "h2.s1/../x", Role: "writer", Attempt: 2, Timestamp: at}))
	h := &History{ExecutionID: "run-1", TaskInput: "q", Passes: []Pass{{Number: 1}, {Number: 2}},
		Configuration: Configuration{Mode: "discovery"}, Termination: Converged, FinalResult: FinalResult{Status: "success"}}
	require.NoError(t, d.LogSummary(h))

	entries, err := os.ReadDir(d.Path())
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"history.json", "iteration_1_analyst_h2.json", "iteration_2_writer_h2.s1_.._x_retry.json", "session_summary.json"}, names,
		"one file per call, the retry suffixed, no path separators from step IDs")
	b, err := os.ReadFile(filepath.Join(d.Path(), "iteration_1_analyst_h2.json"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"input_prompt": "key [REDACTED]"`)
	var sum Summary
	b, err = os.ReadFile(filepath.Join(d.Path(), "session_summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &sum))
	assert.Equal(t, Summary{ExecutionID: "run-1", Query: "q", Mode: "discovery", TotalIterations: 2, FinalStatus: "success", Termination: Converged}, sum)
}

func TestNewDirError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err := NewDir(file, "run", nil)
	assert.ErrorContains(t, err, "log dir")
}
