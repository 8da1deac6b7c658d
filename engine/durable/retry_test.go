package durable

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/sdk"
)

// run executes in on a test environment over p and returns its output.
func run(t *testing.T, p *inProcess, in Input) *Output {
	t.Helper()
	env := testEnv(t, defaultRules(t), p)
	env.ExecuteWorkflow(WorkflowName, in)
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var out Output
	require.NoError(t, env.GetWorkflowResult(&out))
	return &out
}

func commitsQuestion(t *testing.T) Input {
	return Input{Query: "what changed in payments this month?", ID: "run-1", Rules: defaultRules(t).Digest(), Formats: []string{"json"}, Now: now}
}

func TestActivitiesRetryByErrorKind(t *testing.T) {
	for _, tt := range []struct {
		kind       sdk.ErrorKind
		wantCalls  int
		wantStatus string
	}{
		{sdk.KindRateLimited, 3, runner.ResultSuccess},
		{sdk.KindUnavailable, 3, runner.ResultSuccess},
		{sdk.KindBadConfig, 1, runner.ResultFailed},
		{sdk.KindUnauthorized, 1, runner.ResultFailed},
	} {
		t.Run(tt.kind.String(), func(t *testing.T) {
			p := newInProcess(t, gitRepo(t))
			p.fail = func(op, name string, attempt int) error {
				if op == "fetch" && attempt <= 2 {
					return sdk.Errorf(tt.kind, "%s said no (attempt %d)", name, attempt)
				}
				return nil
			}
			out := run(t, p, commitsQuestion(t))
			assert.Equal(t, tt.wantCalls, p.count("fetch", "gitlab"), "calls to the source")
			assert.Equal(t, tt.wantStatus, out.Status, "%s", out.Reports["json"])
			if tt.wantStatus == runner.ResultFailed {
				assert.Contains(t, string(out.Reports["json"]), "gitlab said no (attempt 1)", "the plugin's own error reaches the report")
			}
		})
	}
}

func TestSlowSourceEndsTheRunAtItsTTL(t *testing.T) {
	env := testEnv(t, defaultRules(t), newInProcess(t, gitRepo(t)))
	// A source that answers only after ten minutes on the test's skipping
	// clock: the run's TTL (a minute) is measured on the workflow's clock.
	env.OnActivity(activityFetch, mock.Anything, mock.Anything).After(10*time.Minute).Return(&FetchOutput{Records: records{}}, nil)
	env.ExecuteWorkflow(WorkflowName, commitsQuestion(t))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var out Output
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.NotEqual(t, runner.ResultSuccess, out.Status)
	assert.Equal(t, history.TTLExpired, out.Termination, "the run ends at its TTL, on the workflow's clock")
}

func TestCancelledRunKeepsItsHistory(t *testing.T) {
	p := newInProcess(t, gitRepo(t))
	release := make(chan struct{})
	p.fail = func(op, _ string, _ int) error {
		if op == "invoke" {
			<-release
		}
		return nil
	}
	env := testEnv(t, defaultRules(t), p)
	env.RegisterDelayedCallback(func() {
		env.CancelWorkflow()
		close(release)
	}, 0)
	env.ExecuteWorkflow(WorkflowName, commitsQuestion(t))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError())
	var out Output
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.Equal(t, runner.ResultCancelled, out.Status)
	assert.Equal(t, history.Cancelled, out.Termination)
	assert.Contains(t, string(out.Reports["json"]), `"passes"`, "the partial history is kept")
}

func TestWorkerWithOtherRulesRefusesTheRun(t *testing.T) {
	p := newInProcess(t, gitRepo(t))
	in := commitsQuestion(t)
	in.Rules = strings.Repeat("0", 64)
	env := testEnv(t, defaultRules(t), p)
	env.ExecuteWorkflow(WorkflowName, in)
	require.True(t, env.IsWorkflowCompleted())
	err := env.GetWorkflowError()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the run was asked with rules 000000000000 but this worker has rules")
	assert.Zero(t, p.count("fetch", "gitlab"), "nothing was asked of any plugin")
}

func TestProgressQueryTellsTheEvents(t *testing.T) {
	p := newInProcess(t, gitRepo(t))
	env := testEnv(t, defaultRules(t), p)
	var seen []runner.Event
	env.ExecuteWorkflow(WorkflowName, commitsQuestion(t))
	require.NoError(t, env.GetWorkflowError())
	v, err := env.QueryWorkflow(queryProgress, 0)
	require.NoError(t, err)
	require.NoError(t, v.Get(&seen))
	require.NotEmpty(t, seen)
	assert.Equal(t, "pass", seen[0].Kind)
	assert.Equal(t, "done", seen[len(seen)-1].Kind)
	v, err = env.QueryWorkflow(queryProgress, 2)
	require.NoError(t, err)
	var tail []runner.Event
	require.NoError(t, v.Get(&tail))
	assert.Equal(t, seen[2:], tail, "a query from n tells the events after the first n")
}

func TestHistoryAtItsBoundAsksNoMore(t *testing.T) {
	p := newInProcess(t, gitRepo(t))
	env := testEnv(t, defaultRules(t), p)
	env.SetCurrentHistorySize(maxHistoryBytes + 1)
	env.ExecuteWorkflow(WorkflowName, commitsQuestion(t))
	require.True(t, env.IsWorkflowCompleted())
	require.NoError(t, env.GetWorkflowError(), "the run ends with an answer, not terminated by the service")
	var out Output
	require.NoError(t, env.GetWorkflowResult(&out))
	assert.Equal(t, runner.ResultFailed, out.Status)
	assert.Contains(t, string(out.Reports["json"]), "not asked: the run's Temporal history holds")
	assert.Zero(t, p.count("fetch", "gitlab"), "no plugin was asked")
}
