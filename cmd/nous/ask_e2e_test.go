package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func askE2E(t *testing.T, rulesDir, query string, wrapSources func(engine.Sources) engine.Sources, wrapAgents func(engine.Agents) engine.Agents) *runner.Result {
	t.Helper()
	a := &app{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, getenv: os.Getenv, rulesPath: rulesDir}
	rs, err := a.loadRules()
	require.NoError(t, err)
	plan, err := engine.NewPlanner(rs).Plan(context.Background(), engine.Request{Query: query})
	require.NoError(t, err)
	m, err := a.newManager(rs, a.redactor(rs))
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	now, _ := time.Parse(time.RFC3339, askNow)
	var src engine.Sources = m
	var ag engine.Agents = m
	if wrapSources != nil {
		src = wrapSources(m)
	}
	if wrapAgents != nil {
		ag = wrapAgents(m)
	}
	res, err := runner.New(src, ag, runner.Options{Clock: func() time.Time { return now }}).Run(context.Background(), plan)
	require.NoError(t, err)
	return res
}

type gatedSources struct {
	next    engine.Sources
	mu      sync.Mutex
	arrived int
	open    chan struct{}
}

func (g *gatedSources) Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	g.mu.Lock()
	g.arrived++
	if g.arrived == 2 {
		close(g.open)
	}
	g.mu.Unlock()
	select {
	case <-g.open:
	case <-time.After(10 * time.Second):
	}
	return g.next.Fetch(ctx, source, req, emit)
}

func TestAskStatusRunsIndependentStepsInParallel(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	res := askE2E(t, rules, "what is the status of the project?", func(s engine.Sources) engine.Sources {
		return &gatedSources{next: s, open: make(chan struct{})}
	}, nil)
	require.Equal(t, runner.ResultSuccess, res.Status, res.Error)
	runs := map[string]history.StepRun{}
	for _, s := range res.History.Passes[0].Steps {
		runs[s.ID] = s
	}
	h0, h1, h2 := runs["h0"], runs["h1"], runs["h2"]
	assert.Less(t, h0.StartSeq, h1.EndSeq)
	assert.Less(t, h1.StartSeq, h0.EndSeq)
	assert.Greater(t, h2.StartSeq, max(h0.EndSeq, h1.EndSeq))
	assert.Contains(t, res.Report, "PAY-1")
	assert.Contains(t, res.Report, "Fix")
}

type rejectOnce struct {
	next     engine.Agents
	rejected atomic.Bool
	mu       sync.Mutex
	analyst  []sdk.InvokeRequest
}

func (r *rejectOnce) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	if req.Role == sdk.RoleAnalyst {
		r.mu.Lock()
		r.analyst = append(r.analyst, req)
		r.mu.Unlock()
	}
	resp, err := r.next.Invoke(ctx, agent, req)
	if err == nil && req.Role == sdk.RoleCritic && r.rejected.CompareAndSwap(false, true) {
		resp.Output, _ = json.Marshal(sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "state the time span",
			Suggestions: []string{"add the time span"}, LogicalGaps: []string{"no period"}})
	}
	return resp, err
}

func TestAskCriticRejectOnceThenConverges(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	agents := &rejectOnce{}
	res := askE2E(t, rules, "which commits were pushed last week?", nil, func(a engine.Agents) engine.Agents {
		agents.next = a
		return agents
	})
	require.Len(t, res.History.Passes, 2)
	assert.Equal(t, history.Converged, res.History.Termination)
	assert.Equal(t, "MODIFY", res.History.Passes[0].Refinements[0].Op)
	require.Len(t, agents.analyst, 2)
	var revise sdk.AnalystInput
	require.NoError(t, json.Unmarshal(agents.analyst[1].Input, &revise))
	require.NotNil(t, revise.Review)
	assert.Equal(t, "state the time span", revise.Review.Critique)
	assert.Contains(t, agents.analyst[1].Instructions, "AnalystRevisePrompt", "the revise branch of the prompt template")
	assert.Equal(t, runner.ResultSuccess, res.Status)
	assert.Contains(t, res.Report, "Fix refund rounding")
}

func TestAskInterruptPrintsPartialHistory(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	called, release := make(chan struct{}, 1), make(chan struct{})
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case called <- struct{}{}:
		default:
		}
		select { // an LLM that never answers
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer llm.Close()
	defer close(release)

	cmd := exec.Command(os.Args[0], "ask", "--rules", rules, "--format", "text", "which commits were pushed last week?")
	cmd.Env = append(os.Environ(), envAsNous+"=1", envNow+"="+askNow, "NOUS_OPENAI_BASE_URL="+llm.URL, "OPENAI_API_KEY=sk-test-interrupt")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Start())
	select {
	case <-called: // the analyst call is in flight
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the agent was never called; stderr: %s", errb.String())
	}
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	err := cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "stderr: %s", errb.String())
	assert.Equal(t, 1, ee.ExitCode())
	assert.Contains(t, out.String(), "Status: cancelled (cancelled")
	assert.Contains(t, out.String(), "h0     completed Retrieve commit data from GitLab (1 record(s))", "the partial history is printed")
	assert.Contains(t, errb.String(), "run cancelled")
	assert.NotContains(t, out.String()+errb.String(), "sk-test-interrupt")
}

func fakeLLM(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var reviews atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		if r.URL.Path != "/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) < 2 {
			http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		system, user := req.Messages[0].Content, req.Messages[1].Content
		var content string
		switch {
		case strings.Contains(system, "AnalystRevisePrompt"), strings.Contains(system, "AnalystAgentPrompt"):
			var titles []string
			for _, line := range strings.Split(user, "\n") {
				if t, ok := strings.CutPrefix(strings.TrimSpace(line), "title: "); ok {
					titles = append(titles, t)
				}
			}
			draft := "Commits: " + strings.Join(titles, "; ")
			if strings.Contains(system, "AnalystRevisePrompt") {
				draft += " (revised)"
			}
			b, _ := json.Marshal(draft)
			content = "```json\n{\"status\": \"DRAFT_READY\", \"new_queries\": [], \"draft\": " + string(b) + ", \"reasoning_chain\": \"listed\",}\n```"
		case strings.Contains(system, "CriticAgentPrompt"):
			verdict := "PASS"
			if reviews.Add(1) == 1 {
				verdict = "REJECT"
			}
			content = `{"status": "` + verdict + `", "critique": "checked", "suggestions": [], "mode_compliance": "符合", "logical_gaps": []}`
		case strings.Contains(system, "WriterAgentPrompt"):
			var in sdk.WriterInput
			raw, _, _ := strings.Cut(strings.TrimPrefix(user, "Input (JSON):\n"), "\n\nContext records")
			_ = json.Unmarshal([]byte(raw), &in)
			b, _ := json.Marshal(sdk.WriterOutput{FinalReport: "# Answer\n\n" + in.Draft, SourcesUsed: []string{}, ConfidenceLevel: "High"})
			content = string(b)
		default:
			content = `{}`
		}
		resp, _ := json.Marshal(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "fake",
			"choices": []map[string]any{{"index": 0, "message": map[string]string{"role": "assistant", "content": content}, "finish_reason": "stop"}},
			"usage":   map[string]int{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(resp)
	}))
	t.Cleanup(srv.Close)
	return srv, &reviews
}

func TestAskWithOpenAICompatibleServer(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add gateway retry": "2026-11-05T15:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	llm, reviews := fakeLLM(t)
	t.Setenv("NOUS_OPENAI_BASE_URL", llm.URL)
	t.Setenv("OPENAI_API_KEY", "sk-fake-key-123")
	logs := t.TempDir()
	out, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "--log-dir", logs, "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, runner.ResultSuccess, doc.Result.Status, doc.Result.Error)
	assert.Equal(t, int32(2), reviews.Load(), "rejected once, passed once")
	require.Len(t, doc.History.Passes, 2)
	assert.Contains(t, doc.Result.Report, "Fix refund rounding")
	assert.Contains(t, doc.Result.Report, "Add gateway retry")
	assert.Contains(t, doc.Result.Report, "(revised)")
	assert.Positive(t, doc.History.Statistics.PromptTokens, "token usage is reported")
	assert.NotContains(t, out+stderr, "sk-fake-key-123")
	runs, err := os.ReadDir(logs)
	require.NoError(t, err)
	require.Len(t, runs, 1)
	b, err := os.ReadFile(filepath.Join(logs, runs[0].Name(), "iteration_1_analyst_h2.json"))
	require.NoError(t, err)
	var call history.AgentCall
	require.NoError(t, json.Unmarshal(b, &call))
	assert.Contains(t, call.InputPrompt, "AnalystAgentPrompt")
}
