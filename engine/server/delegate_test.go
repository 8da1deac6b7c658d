package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/server"
)

// fakeDelegate answers every question with the same rendered outputs and
// records what it was handed.
type fakeDelegate struct {
	mu     sync.Mutex
	asked  []server.DelegatedQuestion
	answer server.DelegatedAnswer
	fail   error
}

func (f *fakeDelegate) Answer(_ context.Context, q server.DelegatedQuestion) (*server.DelegatedAnswer, error) {
	f.mu.Lock()
	f.asked = append(f.asked, q)
	f.mu.Unlock()
	if f.fail != nil {
		return nil, f.fail
	}
	q.Progress(runner.Event{Kind: "pass", Pass: 1})
	q.Progress(runner.Event{Kind: "done", Status: f.answer.Status})
	a := f.answer
	return &a, nil
}

func TestDelegatedRunsAreServedAsLocalOnes(t *testing.T) {
	p := newFixtures(t)
	d := &fakeDelegate{answer: server.DelegatedAnswer{Status: runner.ResultSuccess, Termination: "converged", Report: "3 open issues",
		Outputs: map[string][]byte{"json": []byte(`{"result":{"status":"success"}}`), "markdown": []byte("# 3 open issues\n")}}}
	s := start(t, p, server.Config{Delegate: d, MaxRuns: 2, Queue: 2, KeepRuns: 10, KeepBytes: 1 << 20})

	resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": "how many open issues are there?", "format": "markdown", "trace": true})
	require.Equal(t, 200, resp.StatusCode, string(body))
	assert.Equal(t, "# 3 open issues\n", string(body), "the delegate's rendering is the answer")
	id := resp.Header.Get("Nous-Run-Id")
	require.NotEmpty(t, id)

	require.Len(t, d.asked, 1)
	q := d.asked[0]
	assert.Equal(t, id, q.ID, "the run keeps the server's ID")
	assert.Equal(t, "how many open issues are there?", q.Query)
	assert.Equal(t, []string{"json", "markdown"}, q.Formats, "the JSON is kept, the request's format answered")
	assert.True(t, q.Trace)
	assert.NotEmpty(t, q.Digest, "the rules' digest goes with the question")
	assert.NotNil(t, q.Rules)

	resp, body = s.do(t, "GET", "/v1/runs/"+id, nil)
	require.Equal(t, 200, resp.StatusCode)
	var detail struct {
		Status string          `json:"status"`
		Output json.RawMessage `json:"output"`
	}
	require.NoError(t, json.Unmarshal(body, &detail))
	assert.Equal(t, runner.ResultSuccess, detail.Status)
	assert.JSONEq(t, `{"result":{"status":"success"}}`, string(detail.Output), "the delegated run's JSON is stored")

	resp, body = s.do(t, "POST", "/v1/ask", map[string]any{"query": "how many open issues are there?"}, "Accept", "text/event-stream")
	require.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, string(body), "event: pass", "the delegate's progress streams")
	assert.Contains(t, string(body), "event: done")
}

func TestDelegatedPlanErrorsAndFailures(t *testing.T) {
	p := newFixtures(t)
	d := &fakeDelegate{answer: server.DelegatedAnswer{Status: runner.ResultFailed,
		PlanDiagnostics: []server.PlanDiagnostic{{Code: "no_source", Message: "no source serves issues"}}}}
	s := start(t, p, server.Config{Delegate: d, MaxRuns: 2, Queue: 2, KeepRuns: 10, KeepBytes: 1 << 20})
	resp, body := s.do(t, "POST", "/v1/ask", map[string]any{"query": "how many open issues are there?"})
	assert.Equal(t, 422, resp.StatusCode, string(body))
	assert.Contains(t, string(body), "no source serves issues")

	d.fail = assert.AnError
	resp, body = s.do(t, "POST", "/v1/ask", map[string]any{"query": "how many open issues are there?"})
	assert.NotEqual(t, 200, resp.StatusCode)
	assert.True(t, strings.Contains(string(body), assert.AnError.Error()), string(body))
}
