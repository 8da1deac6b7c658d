package main

import (
	"errors"
	"testing"

	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAskExit(t *testing.T) {
	result := func(status string, caveats ...string) *runner.Result {
		return &runner.Result{Status: status, Caveats: caveats, History: &history.History{Termination: history.Converged}}
	}
	tests := []struct {
		name    string
		res     *runner.Result
		runErr  error
		written int64
		code    int    // 0: no error
		msg     string // the reason on stderr
	}{
		{"success", result(runner.ResultSuccess), nil, 120, 0, ""},
		{"partial answers: exit 0, the report says why", result(runner.ResultPartial, "No commits between 2026-11-02 and 2026-11-08."), nil, 120, 0, ""},
		{"failed", result(runner.ResultFailed, "No source answered the question.", `Source "youtrack" is not available: not configured.`), nil, 120, exitFindings,
			`run failed (converged): No source answered the question. Source "youtrack" is not available: not configured.`},
		{"failed without caveats", result(runner.ResultFailed), nil, 120, exitFindings, "run failed (converged)"},
		{"cancelled", result(runner.ResultCancelled), nil, 120, exitFindings, "run cancelled (converged)"},
		{"run error", result(runner.ResultFailed), errors.New("no valid sources"), 120, exitFindings, "no valid sources"},
		{"nothing printed", result(runner.ResultSuccess), nil, 0, exitFindings, "run success, but it printed nothing"},
		{"asked back: exit 3, the output is the question", result(runner.ResultNeedsClarification), nil, 120, exitClarify, ""},
		{"secrets masked", result(runner.ResultFailed, "No report: the writer step h2 failed: 401 bad key sk-secret."), nil, 120, exitFindings,
			"run failed (converged): No report: the writer step h2 failed: 401 bad key [REDACTED]."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := askExit(tt.res, tt.runErr, tt.written, redact.New("sk-secret"))
			if tt.code == 0 {
				assert.NoError(t, err)
				return
			}
			var ee *exitError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, tt.code, ee.Code)
			if tt.msg == "" {
				assert.NoError(t, ee.Err, "nothing more to say on stderr")
				return
			}
			require.Error(t, ee.Err, "the reason goes to stderr")
			assert.Equal(t, tt.msg, ee.Err.Error())
		})
	}
}
