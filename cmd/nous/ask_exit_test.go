package main

import (
	"errors"
	"testing"

	nexec "github.com/nous-dev/nous/engine/exec"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAskExit(t *testing.T) {
	result := func(status string, caveats ...string) *nexec.Result {
		return &nexec.Result{Status: status, Caveats: caveats, History: &history.History{Termination: history.Converged}}
	}
	tests := []struct {
		name    string
		res     *nexec.Result
		runErr  error
		written int64
		code    int    // 0: no error
		msg     string // the reason on stderr
	}{
		{"success", result(nexec.ResultSuccess), nil, 120, 0, ""},
		{"partial answers: exit 0, the report says why", result(nexec.ResultPartial, "No commits between 2026-11-02 and 2026-11-08."), nil, 120, 0, ""},
		{"failed", result(nexec.ResultFailed, "No source answered the question.", `Source "youtrack" is not available: not configured.`), nil, 120, exitFindings,
			`run failed (converged): No source answered the question. Source "youtrack" is not available: not configured.`},
		{"failed without caveats", result(nexec.ResultFailed), nil, 120, exitFindings, "run failed (converged)"},
		{"cancelled", result(nexec.ResultCancelled), nil, 120, exitFindings, "run cancelled (converged)"},
		{"run error", result(nexec.ResultFailed), errors.New("no valid sources"), 120, exitFindings, "no valid sources"},
		{"nothing printed", result(nexec.ResultSuccess), nil, 0, exitFindings, "run success, but it printed nothing"},
		{"secrets masked", result(nexec.ResultFailed, "No report: the writer step h2 failed: 401 bad key sk-secret."), nil, 120, exitFindings,
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
			require.Error(t, ee.Err, "the reason goes to stderr")
			assert.Equal(t, tt.msg, ee.Err.Error())
		})
	}
}
