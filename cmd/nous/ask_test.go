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
	nexec "github.com/nous-dev/nous/engine/exec"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// askNow is the fixed clock of these tests: "last week" is 2026-11-02 to 2026-11-09.
const askNow = "2026-11-10T12:00:00Z"

// gitRepo creates a repository with one commit per subject, dated as given.
func askRepo(t *testing.T, commits map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	askGit(t, dir, nil, "init", "-q", "-b", "main")
	for _, subject := range askSubjects(commits) {
		date := commits[subject]
		name := filepath.Join(dir, strings.ReplaceAll(subject, " ", "_")+".txt")
		require.NoError(t, os.WriteFile(name, []byte(subject+"\n"), 0o644))
		askGit(t, dir, nil, "add", ".")
		askGit(t, dir, []string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, "commit", "-q", "-m", subject)
	}
	return dir
}

func askSubjects(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	// by date, so history order is the dates' order
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if m[out[j]] < m[out[i]] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func askGit(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Alice Chen", "GIT_AUTHOR_EMAIL=alice@example.test",
		"GIT_COMMITTER_NAME=Alice Chen", "GIT_COMMITTER_EMAIL=alice@example.test", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
}

// askRules writes the default rules with sources pointing at repo and a
// JSON-lines file of issues, plus extra rules, and returns the directory.
func askRules(t *testing.T, repo, issues, extra string) string {
	t.Helper()
	dir := t.TempDir()
	defaults := filepath.Join("..", "..", "examples", "rules", "default")
	entries, err := os.ReadDir(defaults)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name() == "sources.hcl" || (strings.Contains(extra, "loop {") && e.Name() == "loop.hcl") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(defaults, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644))
	}
	sources := `
source "gitlab" {
  plugin   = "builtin:git"
  priority = 10
  config   = { path = ` + askQuote(repo) + ` }
}
source "youtrack" {
  plugin   = "builtin:file"
  priority = 10
  config   = { path = ` + askQuote(issues) + ` }
}
source "generic" {
  plugin   = "builtin:file"
  priority = 5
  config   = { path = ` + askQuote(issues) + ` }
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sources.hcl"), []byte(sources+extra), 0o644))
	return dir
}

func askQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func askIssues(t *testing.T, rows ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "issues.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(rows, "\n")+"\n"), 0o644))
	return p
}

var askDefaultIssues = []string{
	`{"id": "PAY-1", "kind": "issue", "title": "Refund stuck", "status": "open", "project": "PAY", "author": "Bob Lin", "time": "2026-11-04T09:00:00Z"}`,
	`{"id": "PAY-2", "kind": "issue", "title": "Gateway 429", "status": "in-progress", "project": "PAY", "author": "Erin Tsai", "time": "2026-11-05T09:00:00Z"}`,
}

// ask runs `nous ask` in-process with the fixed clock.
func ask(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Setenv(envNow, askNow)
	var out, errb bytes.Buffer
	code = run(append([]string{"ask"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestAskCommitQuestionNamesCommits(t *testing.T) {
	repo := askRepo(t, map[string]string{
		"Fix refund rounding":      "2026-11-03T10:00:00Z",
		"Add gateway retry":        "2026-11-05T15:00:00Z",
		"Old change outside range": "2026-10-01T10:00:00Z",
	})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	out, stderr, code := ask(t, "--rules", rules, "--format", "markdown", "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "Fix refund rounding")
	assert.Contains(t, out, "Add gateway retry")
	assert.NotContains(t, out, "Old change outside range", "the dates filter reached the source")
	assert.Contains(t, out, "**Status:** success (converged, 1 pass(es), mode `discovery`)")
	assert.Empty(t, stderr, "quiet when stderr is not a terminal")
}

func TestAskFailingCheckBroadensQuery(t *testing.T) {
	repo := askRepo(t, map[string]string{"Ancient fix": "2026-09-01T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	out, stderr, code := ask(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.History.Passes, 2)
	refs := doc.History.Passes[0].Refinements
	require.Len(t, refs, 1)
	assert.Equal(t, history.Refinement{Op: "MODIFY", Step: "h0", DropFilters: []string{"dates"},
		Justification: `check "retrieval_found_data": retrieval returned no records`, Applied: true}, refs[0])
	assert.Equal(t, history.Converged, doc.History.Termination)
	assert.Contains(t, doc.Result.Report, "Ancient fix", "the broadened retrieve found the commit")
	assert.NotContains(t, doc.History.Passes[1].Steps[0].Filters, "dates")
}

func TestAskRefinementLimitStopsLoop(t *testing.T) {
	repo := askRepo(t, map[string]string{"Ancient fix": "2026-09-01T10:00:00Z", "Recent fix": "2026-11-03T10:00:00Z"})
	// A check no retrieval can satisfy: broadening once does not help, and
	// broadening again would change nothing.
	never := `
check "needs_a_hundred" {
  applies = "step.action == 'retrieve'"
  assert  = "len(step.records) >= 100"
  message = "fewer than 100 records"
  on_fail = "refine"
  refine {
    drop_filters = ["dates"]
  }
}
`
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), never)
	out, stderr, code := ask(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc), stderr)
	assert.Equal(t, 1, code, "a run that never converged and answered nothing fails")
	assert.Equal(t, history.RefineLimit, doc.History.Termination)
	require.Len(t, doc.History.Passes, 2)
	assert.True(t, doc.History.Passes[0].Refinements[0].Applied)
	last := doc.History.Passes[1].Refinements
	require.Len(t, last, 1)
	assert.False(t, last[0].Applied)
	assert.Equal(t, "refinement would not change the step", last[0].Refused)
	assert.Equal(t, "failed", doc.Result.Steps[0].Status)
	assert.Contains(t, stderr, "run failed (refine_limit)")
}

func TestAskTTLStopsLoop(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "loop {\n  ttl = \"1ns\"\n}\n")
	out, _, code := ask(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, history.TTLExpired, doc.History.Termination)
	assert.Equal(t, 1, code)
	assert.Equal(t, "skipped", doc.Result.Steps[0].Status)
}

func TestAskStrictModeNoValidSources(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	social := askIssues(t,
		`{"id": "ptt-1", "source": "PTT", "kind": "document", "title": "outage rumour", "time": "2026-11-04T09:00:00Z"}`,
		`{"id": "dcard-1", "source": "Dcard", "kind": "document", "title": "outage again", "time": "2026-11-05T09:00:00Z"}`)
	rules := askRules(t, repo, social, "")
	out, stderr, code := ask(t, "--rules", rules, "--mode", "strict", "--format", "nlweb", "is it true that the outage happened?")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no valid sources")
	items := []report.Item{}
	require.NoError(t, json.Unmarshal([]byte(out), &items))
	require.Len(t, items, 1)
	assert.Equal(t, "ResearchError", items[0].SchemaObject.Type)
	assert.Contains(t, items[0].Description, "no valid sources")
}

func TestAskByteIdentical(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add retry": "2026-11-05T15:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	for _, format := range []string{"text", "json", "nlweb", "markdown"} {
		first, stderr, code := ask(t, "--rules", rules, "--format", format, "--trace", "what is the status of the project?")
		require.Equal(t, 0, code, stderr)
		second, _, _ := ask(t, "--rules", rules, "--format", format, "--trace", "what is the status of the project?")
		assert.Equal(t, first, second, format)
	}
}

func TestAskNLWebFields(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	out, stderr, code := ask(t, "--rules", askRules(t, repo, askIssues(t, askDefaultIssues...), ""), "--format", "nlweb", "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	var items []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &items))
	require.Len(t, items, 1)
	var keys []string
	for k := range items[0] {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"@type", "url", "name", "site", "siteUrl", "score", "description", "schema_object"}, keys)
}

func TestAskLogDir(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	logs := t.TempDir()
	_, stderr, code := ask(t, "--rules", askRules(t, repo, askIssues(t, askDefaultIssues...), ""), "--log-dir", logs, "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	runs, err := os.ReadDir(logs)
	require.NoError(t, err)
	require.Len(t, runs, 1)
	files, err := os.ReadDir(filepath.Join(logs, runs[0].Name()))
	require.NoError(t, err)
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	assert.Equal(t, []string{"history.json", "iteration_1_analyst_h2.json", "iteration_1_critic_h2.json", "iteration_1_writer_h2.json", "session_summary.json"}, names)
}

func TestAskUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "yaml", "q"}, `--format "yaml"`},
		{[]string{"--mode", "nope", "q"}, `mode "nope" is not defined`},
		{[]string{"   "}, "the question is empty"},
	} {
		_, stderr, code := ask(t, tt.args...)
		assert.Equal(t, 2, code, tt.args)
		assert.Contains(t, stderr, tt.want)
	}
	t.Setenv(envNow, "yesterday")
	var out, errb bytes.Buffer
	assert.Equal(t, 2, run([]string{"ask", "q"}, strings.NewReader(""), &out, &errb))
	assert.Contains(t, errb.String(), "not an RFC 3339 time")
}

// e2e runs a plan through real plugin subprocesses with wrappers around
// the manager, for behaviour the CLI output does not show.
func askE2E(t *testing.T, rulesDir, query string, wrapSources func(engine.Sources) engine.Sources, wrapAgents func(engine.Agents) engine.Agents) *nexec.Result {
	t.Helper()
	a := &app{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, getenv: os.Getenv, rulesPath: rulesDir}
	rs, err := a.loadRules()
	require.NoError(t, err)
	plan, err := engine.NewPlanner(rs).Plan(context.Background(), engine.Request{Query: query})
	require.NoError(t, err)
	m, err := a.newManager(rs)
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
	res, err := nexec.New(src, ag, nexec.Options{Clock: func() time.Time { return now }}).Run(context.Background(), plan)
	require.NoError(t, err)
	return res
}

// gatedSources holds each Fetch until two are in flight (or a timeout),
// which only happens when the executor runs them in parallel.
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
	require.Equal(t, nexec.ResultSuccess, res.Status, res.Error)
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

// rejectOnce turns the first critic answer into a REJECT.
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
	assert.Equal(t, nexec.ResultSuccess, res.Status)
	assert.Contains(t, res.Report, "Fix refund rounding")
}

func TestAskCrashingAgentKeepsHistory(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	crash := filepath.Join(t.TempDir(), "nous-plugin-crash")
	require.NoError(t, os.WriteFile(crash, []byte("#!/bin/sh\necho 'boom' >&2\nexit 3\n"), 0o755))
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	agents, err := os.ReadFile(filepath.Join(rules, "agents.hcl"))
	require.NoError(t, err)
	patched := strings.Replace(string(agents), `agent "analyst" {
  plugin  = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != "" ? "builtin:openai" : "builtin:template"`,
		`agent "analyst" {
  plugin  = `+askQuote(crash), 1)
	require.NotEqual(t, string(agents), patched)
	require.NoError(t, os.WriteFile(filepath.Join(rules, "agents.hcl"), []byte(patched), 0o644))

	out, stderr, code := ask(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
	assert.Equal(t, 0, code, "a partial run still answers")
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc), stderr)
	assert.Equal(t, nexec.ResultPartial, doc.Result.Status)
	steps := doc.History.Passes[0].Steps
	require.Len(t, steps, 3)
	assert.Equal(t, "completed", steps[0].Status)
	assert.Equal(t, "completed", steps[1].Status)
	assert.Equal(t, "failed", steps[2].Status)
	assert.Contains(t, steps[2].Error, `agent "analyst"`)
	assert.Contains(t, doc.Result.Report, "h2 Format commit summary for user: failed")
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

func TestProgressPrinter(t *testing.T) {
	var b bytes.Buffer
	p := progressPrinter(&b)
	for _, ev := range []nexec.Event{
		{Kind: "pass", Pass: 1},
		{Kind: "start", Step: "h0", Description: "Retrieve commit data"},
		{Kind: "end", Step: "h0", Status: nexec.StatusInvalid},
		{Kind: "refine", Step: "h0", Status: "MODIFY", Detail: "retrieval returned no records"},
		{Kind: "end", Step: "h1", Status: nexec.StatusFailed, Detail: "boom"},
		{Kind: "end", Step: "h2", Status: nexec.StatusSkipped},
		{Kind: "done", Status: "partial", Detail: "max_passes"},
	} {
		p(ev)
	}
	assert.Equal(t, "── pass 1\n  … h0    Retrieve commit data\n  ↻ h0    invalid\n  ↻ MODIFY h0: retrieval returned no records\n"+
		"  ✗ h1    failed: boom\n  - h2    skipped\n── partial (max_passes)\n", b.String())
}

// fakeLLM is an OpenAI-compatible chat-completions server that plays the
// roles from their prompts: the analyst lists the context titles (in a code
// fence, with a trailing comma, as LLMs do), the critic rejects the first
// draft, the writer publishes the draft.
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
	out, stderr, code := ask(t, "--rules", rules, "--format", "json", "--log-dir", logs, "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, nexec.ResultSuccess, doc.Result.Status, doc.Result.Error)
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
