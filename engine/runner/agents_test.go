package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCriticRejectThenRevise(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	var reviews atomic.Int32
	agents.roles[sdk.RoleCritic] = func(req sdk.InvokeRequest) (string, error) {
		if reviews.Add(1) == 1 {
			return mustJSON(sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "no dates", Suggestions: []string{"add the time span"}, LogicalGaps: []string{"period"}}), nil
		}
		return mustJSON(sdk.CriticOutput{Status: sdk.VerdictWarn, Critique: "ok now", Suggestions: []string{}, LogicalGaps: []string{}}), nil
	}
	res, err := New(gitSource(commits(2)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)

	require.Len(t, res.History.Passes, 2)
	p1 := res.History.Passes[0]
	assert.False(t, p1.Convergence.Converged)
	assert.Equal(t, []string{"h2"}, p1.Convergence.NeedRefine)
	require.Len(t, p1.Refinements, 1)
	assert.Equal(t, history.Refinement{Op: OpModify, Step: "h2", Justification: "critic rejected the draft: no dates", Applied: true}, p1.Refinements[0])
	assert.True(t, res.History.Passes[1].Convergence.Converged)
	assert.Equal(t, history.Converged, res.History.Termination)

	analyst := agents.requests(sdk.RoleAnalyst)
	require.Len(t, analyst, 2)
	var revise sdk.AnalystInput
	require.NoError(t, json.Unmarshal(analyst[1].Input, &revise))
	require.NotNil(t, revise.Review, "the second pass revises")
	assert.Equal(t, sdk.VerdictReject, revise.Review.Status)
	assert.Equal(t, "draft: c1 c2", revise.Draft)
	assert.Contains(t, res.Report, "(revised: no dates)")
	assert.Equal(t, "WARN", res.Review.Status)
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Contains(t, res.History.Passes[1].Steps[0].ID, "h2", "only the rejected step runs again")
	assert.Len(t, res.History.Passes[1].Steps, 1)

	var corrections []string
	for _, e := range res.Trace {
		corrections = append(corrections, e.Corrections...)
	}
	assert.Contains(t, corrections, "add the time span")
}

func TestRejectEveryPassStillComposes(t *testing.T) {
	rs := loadRules(t, "loop {\n  max_passes = 2\n}\n")
	agents := standardAgents()
	agents.roles[sdk.RoleCritic] = func(req sdk.InvokeRequest) (string, error) {
		return mustJSON(sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "never good", Suggestions: []string{}, LogicalGaps: []string{}}), nil
	}
	res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, history.MaxPasses, res.History.Termination)
	assert.Len(t, res.History.Passes, 2)
	assert.Contains(t, res.Report, "# Report", "the writer composes the last draft when passes run out")
	assert.Equal(t, ResultPartial, res.Status)
	assert.Equal(t, sdk.VerdictReject, res.Review.Status)
}

func TestCrashingAgentKeepsHistory(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	agents.roles[sdk.RoleWriter] = func(sdk.InvokeRequest) (string, error) {
		return "", sdk.Errorf(sdk.KindUnavailable, "plugin writer exited unexpectedly (signal: killed)")
	}
	res, err := New(gitSource(commits(2)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, engine.StatusCompleted, res.Steps[0].Status)
	assert.Equal(t, engine.StatusCompleted, res.Steps[1].Status)
	assert.Equal(t, engine.StatusFailed, res.Steps[2].Status)
	assert.Contains(t, res.Steps[2].Error, "exited unexpectedly")
	assert.Equal(t, ResultFailed, res.Status, "a run whose writer produced no report answers nothing")
	require.NotEmpty(t, res.Caveats)
	assert.Equal(t, "No report: the writer step h2 failed: agent \"writer\" (writer): plugin writer exited unexpectedly (signal: killed).", res.Caveats[0])
	assert.Len(t, res.History.Passes[0].Steps, 3)
	assert.Contains(t, res.Pending, "report", "the report commitment is still pending")
	assert.Contains(t, res.Report, "h2 Format commit summary for user: failed")
}

func TestMalformedAgentOutput(t *testing.T) {
	rs := loadRules(t, "")
	t.Run("repaired", func(t *testing.T) {
		agents := standardAgents()
		agents.roles[sdk.RoleCritic] = func(sdk.InvokeRequest) (string, error) {
			return "Sure! ```json\n{status: 'PASS', critique: 'good', suggestions: [], logical_gaps: [],}\n```", nil
		}
		dir := t.TempDir()
		res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock, LogDir: dir}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		assert.Equal(t, ResultSuccess, res.Status)
		assert.Len(t, agents.requests(sdk.RoleCritic), 1, "no retry needed")
		b, err := os.ReadFile(filepath.Join(dir, res.ExecutionID, "iteration_1_critic_h2.json"))
		require.NoError(t, err)
		var call history.AgentCall
		require.NoError(t, json.Unmarshal(b, &call))
		assert.True(t, call.Repaired)
	})
	t.Run("retried then rejected", func(t *testing.T) {
		agents := standardAgents()
		agents.roles[sdk.RoleWriter] = func(sdk.InvokeRequest) (string, error) {
			return `{"final_report": 42, "mood": "sad"}`, nil
		}
		res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		calls := agents.requests(sdk.RoleWriter)
		require.Len(t, calls, 2, "one retry")
		assert.Contains(t, calls[1].Instructions, "Your previous answer was rejected")
		assert.Equal(t, engine.StatusFailed, res.Steps[2].Status)
		assert.Contains(t, res.Steps[2].Error, `agent "writer" (writer): output rejected after a retry: does not match the writer schema: "final_report" must be a string; unknown field "mood"`)
	})
	t.Run("retry succeeds", func(t *testing.T) {
		agents := standardAgents()
		good := agents.roles[sdk.RoleWriter]
		var n atomic.Int32
		agents.roles[sdk.RoleWriter] = func(req sdk.InvokeRequest) (string, error) {
			if n.Add(1) == 1 {
				return `I cannot answer in JSON`, nil
			}
			return good(req)
		}
		res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		assert.Equal(t, ResultSuccess, res.Status)
	})
}

func TestLogDirAndRedaction(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	agents.roles[sdk.RoleWriter] = func(sdk.InvokeRequest) (string, error) {
		return "", errors.New("401 Unauthorized: bad key sk-verysecret")
	}
	dir := t.TempDir()
	res, err := New(gitSource(commits(1)), agents, Options{Clock: fixedClock, LogDir: dir, Redactor: redact.New("sk-verysecret")}).
		Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Contains(t, res.Steps[2].Error, "bad key [REDACTED]")

	names, err := os.ReadDir(filepath.Join(dir, res.ExecutionID))
	require.NoError(t, err)
	var files []string
	for _, n := range names {
		files = append(files, n.Name())
		b, err := os.ReadFile(filepath.Join(dir, res.ExecutionID, n.Name()))
		require.NoError(t, err)
		assert.NotContains(t, string(b), "sk-verysecret", n.Name())
	}
	assert.Equal(t, []string{"history.json", "iteration_1_analyst_h2.json", "iteration_1_critic_h2.json", "iteration_1_writer_h2.json", "session_summary.json"}, files)
	var sum history.Summary
	b, err := os.ReadFile(filepath.Join(dir, res.ExecutionID, "session_summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &sum))
	assert.Equal(t, 1, sum.TotalIterations)
	assert.Equal(t, ResultFailed, sum.FinalStatus, "no report")
	require.NotEmpty(t, res.Caveats)
	assert.Contains(t, res.Caveats[0], "bad key [REDACTED]")
	for _, e := range res.Trace {
		assert.NotContains(t, e.Error, "sk-verysecret")
	}
}

func TestRoleSchemasAreJSONSchemas(t *testing.T) {
	for role, s := range roleSchemas {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(s.schemaJSON(), &doc), role)
		assert.Equal(t, "object", doc["type"])
		assert.Equal(t, false, doc["additionalProperties"])
	}
}

func TestAgentTimeoutFromRules(t *testing.T) {
	rs2, failed := rulesWithWriterTimeout(t)
	require.False(t, failed)
	agents := standardAgents()
	agents.roles[sdk.RoleWriter] = func(req sdk.InvokeRequest) (string, error) {
		time.Sleep(200 * time.Millisecond)
		return "", errors.New("too late")
	}
	slow := &deadlineAgents{next: agents}
	res, err := New(gitSource(commits(1)), slow, Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs2, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, engine.StatusFailed, res.Steps[2].Status)
	assert.Contains(t, res.Steps[2].Error, "context deadline exceeded")
	d, ok := slow.deadline(sdk.RoleWriter)
	require.True(t, ok, "the writer call had a deadline")
	assert.True(t, d.Before(slow.started(sdk.RoleWriter).Add(30*time.Second)), "the agent's 20ms timeout, not the 60s TTL, bounds the call")
}

// rulesWithWriterTimeout is baseRules with a 20ms writer timeout.
func rulesWithWriterTimeout(t *testing.T) (*rules.Ruleset, bool) {
	src := strings.Replace(baseRules, `agent "writer" { plugin = "builtin:template" }`, "agent \"writer\" {\n  plugin  = \"builtin:template\"\n  timeout = \"20ms\"\n}", 1)
	rs, diags := rules.Parse("t.hcl", []byte(src))
	if diags.HasErrors() {
		t.Log(diags.Error())
	}
	return rs, diags.HasErrors()
}

// deadlineAgents records each call's deadline and honours the context.
type deadlineAgents struct {
	next  *fakeAgents
	mu    sync.Mutex
	dl    map[string]time.Time
	start map[string]time.Time
}

func (d *deadlineAgents) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	d.mu.Lock()
	if d.dl == nil {
		d.dl, d.start = map[string]time.Time{}, map[string]time.Time{}
	}
	if dl, ok := ctx.Deadline(); ok {
		d.dl[req.Role] = dl
	}
	d.start[req.Role] = time.Now()
	d.mu.Unlock()
	type answer struct {
		resp sdk.InvokeResponse
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		r, err := d.next.Invoke(ctx, agent, req)
		ch <- answer{r, err}
	}()
	select {
	case a := <-ch:
		return a.resp, a.err
	case <-ctx.Done():
		return sdk.InvokeResponse{}, ctx.Err()
	}
}

func (d *deadlineAgents) deadline(role string) (time.Time, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, ok := d.dl[role]
	return t, ok
}

func (d *deadlineAgents) started(role string) time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.start[role]
}

func TestPromptTemplateErrorFailsStep(t *testing.T) {
	rs := loadRules(t, "prompt \"critic\" {\n  template = \"{{.Input.NoSuchField}}\"\n}\n")
	res, err := New(gitSource(commits(1)), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, engine.StatusFailed, res.Steps[2].Status)
	assert.Contains(t, res.Steps[2].Error, `prompt "critic"`)
	assert.Contains(t, res.Steps[2].Error, "NoSuchField")
}

func TestSingleRoleSteps(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	plan := buildPlan(rs, "which project?", "discovery", nil,
		stepSpec{id: "h0", desc: "r", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
		stepSpec{id: "h1", desc: "draft", action: "agent", role: "analyst", deps: []string{"h0"}},
		stepSpec{id: "h2", desc: "review", action: "agent", role: "critic", deps: []string{"h1"}},
		stepSpec{id: "h3", desc: "ask back", action: "agent", role: "clarification"},
	)
	res, err := New(gitSource(commits(2)), agents, Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Equal(t, "draft: c1 c2", res.Steps[1].Output)
	assert.Equal(t, "fine", res.Steps[2].Output)
	var cin sdk.CriticInput
	require.NoError(t, json.Unmarshal(agents.requests(sdk.RoleCritic)[0].Input, &cin))
	assert.Equal(t, "draft: c1 c2", cin.Draft, "the critic reviews its dependency's draft")
	assert.Equal(t, "Which project?\n- a\n- b", res.Steps[3].Output)
	require.NotNil(t, res.Clarification)
	assert.Equal(t, []string{"a", "b"}, res.Clarification.Options)
	assert.Len(t, agents.requests(sdk.RoleWriter), 0)
}

func TestEmptyDraftSkipsCritic(t *testing.T) {
	rs := loadRules(t, "")
	agents := standardAgents()
	agents.roles[sdk.RoleAnalyst] = func(sdk.InvokeRequest) (string, error) {
		return mustJSON(sdk.AnalystOutput{Status: sdk.AnalystSearchRequired, NewQueries: []string{"hello"}, Draft: ""}), nil
	}
	plan := buildPlan(rs, "hello there", "discovery", nil, stepSpec{id: "h0", desc: "Generate appropriate conversational response", action: "agent", role: "writer"})
	res, err := New(gitSource(nil), agents, Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Empty(t, agents.requests(sdk.RoleCritic), "nothing to review")
	assert.Len(t, agents.requests(sdk.RoleWriter), 1)
	assert.Equal(t, ResultSuccess, res.Status)
	assert.Len(t, res.History.Passes, 1, "no sources to search: no gap search")
}
