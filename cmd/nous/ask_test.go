package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// askNow is the fixed clock of these tests: "last week" is 2026-11-02 to 2026-11-09.

const askNow = "2026-11-10T12:00:00Z"

// askRepo creates a repository with one commit per subject, dated as given.
func askRepo(t testing.TB, commits map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
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

func askGit(t testing.TB, dir string, env []string, args ...string) {
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

func askRules(t testing.TB, repo, issues, extra string) string {
	t.Helper()
	dir := t.TempDir()
	defaults := filepath.Join("..", "..", "examples", "rules", "default")
	entries, err := os.ReadDir(defaults)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name() == "sources.hcl" || (strings.Contains(extra, "loop {") && e.Name() == "loop.hcl") ||
			(strings.Contains(extra, "reasoning_trace {") && e.Name() == "trace.hcl") {
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

func askIssues(t testing.TB, rows ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "issues.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(rows, "\n")+"\n"), 0o644))
	return p
}

var askDefaultIssues = []string{
	`{"id": "PAY-1", "kind": "issue", "title": "Refund stuck", "status": "open", "project": "PAY", "author": "Bob Lin", "time": "2026-11-04T09:00:00Z"}`,
	`{"id": "PAY-2", "kind": "issue", "title": "Gateway 429", "status": "in-progress", "project": "PAY", "author": "Erin Tsai", "time": "2026-11-05T09:00:00Z"}`,
}

// runAsk runs `nous ask` in-process with the fixed clock.

func runAsk(t *testing.T, args ...string) (stdout, stderr string, code int) {
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
	out, stderr, code := runAsk(t, "--rules", rules, "--format", "markdown", "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "Fix refund rounding")
	assert.Contains(t, out, "Add gateway retry")
	assert.NotContains(t, out, "Old change outside range", "the dates filter reached the source")
	assert.Contains(t, out, "**Status:** success (converged, 1 pass(es), depth direct, mode `discovery`)")
	assert.Empty(t, stderr, "quiet when stderr is not a terminal")
}

func TestAskEmptyPeriodShowsNearestBefore(t *testing.T) {
	repo := askRepo(t, map[string]string{"Ancient fix": "2026-09-01T10:00:00Z", "Older fix": "2026-08-01T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	out, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
	require.Equal(t, 0, code, "a partial answer exits 0: %s", stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.History.Passes, 2)
	refs := doc.History.Passes[0].Refinements
	require.Len(t, refs, 1)
	assert.Equal(t, history.Refinement{Op: "MODIFY", Step: "h0", Nearest: "before",
		Justification: `check "retrieval_found_data": retrieval returned no records`, Applied: true}, refs[0])
	assert.Equal(t, history.Converged, doc.History.Termination)
	assert.Equal(t, []string{"last week"}, doc.History.Passes[1].Steps[0].Filters["dates"], "the question's period is kept")

	assert.Equal(t, runner.ResultPartial, doc.Result.Status)
	h0 := doc.Result.Steps[0]
	assert.Equal(t, runner.OutsideBefore, h0.Outside)
	assert.Equal(t, "2026-11-02", h0.AskedSince.Format(time.DateOnly))
	assert.Equal(t, "2026-11-09", h0.AskedUntil.Format(time.DateOnly))
	require.Len(t, doc.Result.Records, 1, "only the most recent commit before the period")
	assert.Equal(t, "Ancient fix", doc.Result.Records[0].Title)
	assert.Equal(t, runner.OutsideBefore, doc.Result.Records[0].Fields[runner.FieldOutside])
	require.Len(t, doc.Result.Caveats, 1)
	assert.Regexp(t, `^No commits between 2026-11-02 and 2026-11-08; showing the most recent before that: [0-9a-f]{7,} "Ancient fix" on 2026-09-01\.$`, doc.Result.Caveats[0])
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
	out, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
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
	assert.Equal(t, engine.StatusFailed, doc.Result.Steps[0].Status)
	assert.Contains(t, stderr, "run failed (refine_limit)")
}

func TestAskTTLStopsLoop(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "loop {\n  ttl = \"1ns\"\n}\n")
	out, _, code := runAsk(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, history.TTLExpired, doc.History.Termination)
	assert.Equal(t, 1, code)
	assert.Equal(t, engine.StatusSkipped, doc.Result.Steps[0].Status)
}

func TestAskStrictModeNoValidSources(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	social := askIssues(t,
		`{"id": "ptt-1", "source": "PTT", "kind": "document", "title": "outage rumour", "time": "2026-11-04T09:00:00Z"}`,
		`{"id": "dcard-1", "source": "Dcard", "kind": "document", "title": "outage again", "time": "2026-11-05T09:00:00Z"}`)
	rules := askRules(t, repo, social, "")
	out, stderr, code := runAsk(t, "--rules", rules, "--mode", "strict", "--format", "nlweb", "is it true that the outage happened?")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no valid sources")
	items := []report.Item{}
	require.NoError(t, json.Unmarshal([]byte(out), &items))
	require.Len(t, items, 2, "the report, then the one intent's answer")
	assert.Equal(t, "ResearchError", items[0].SchemaObject.Type)
	assert.Equal(t, "ResearchError", items[1].SchemaObject.Type, "the intent was not answered")
	assert.Contains(t, items[0].Description, "no valid sources")
}

// runID matches an execution id.
var runID = regexp.MustCompile(`run-\d{8}T\d{6}Z-[0-9a-f]{8}`)

func TestAskByteIdentical(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add retry": "2026-11-05T15:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	for _, format := range []string{"text", "json", "nlweb", "markdown"} {
		first, stderr, code := runAsk(t, "--rules", rules, "--format", format, "--trace", "what is the status of the project?")
		require.Equal(t, 0, code, stderr)
		second, _, _ := runAsk(t, "--rules", rules, "--format", format, "--trace", "what is the status of the project?")
		// Only the execution id differs: every run gets its own.
		assert.Equal(t, runID.ReplaceAllString(first, "run-ID"), runID.ReplaceAllString(second, "run-ID"), format)
	}
}

func TestAskNLWebFields(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	out, stderr, code := runAsk(t, "--rules", askRules(t, repo, askIssues(t, askDefaultIssues...), ""), "--format", "nlweb", "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	var items []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &items))
	require.Len(t, items, 2, "the report, then the one intent's answer")
	for _, it := range items {
		var keys []string
		for k := range it {
			keys = append(keys, k)
		}
		assert.ElementsMatch(t, []string{"@type", "url", "name", "site", "siteUrl", "score", "description", "schema_object"}, keys)
	}
}

func TestAskLogDir(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	logs := t.TempDir()
	_, stderr, code := runAsk(t, "--rules", askRules(t, repo, askIssues(t, askDefaultIssues...), ""), "--log-dir", logs, "which commits were pushed last week?")
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
	assert.Equal(t, []string{"history.json", "iteration_1_analyst_h2.json", "iteration_1_critic_h2.json", "iteration_1_validator_pass1.json", "iteration_1_writer_h2.json", "session_summary.json"}, names)
}

func TestAskUsageErrors(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notDir, nil, 0o644))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "yaml", "q"}, `--format "yaml"`},
		{[]string{"--mode", "nope", "q"}, `mode "nope" is not defined`},
		{[]string{"   "}, "the question is empty"},
		{[]string{"--log-dir", notDir, "q"}, "ask: --log-dir: mkdir " + notDir + ": not a directory"},
		{[]string{"--log-dir", filepath.Join(notDir, "runs"), "q"}, "ask: --log-dir: mkdir " + notDir + ": not a directory"},
	} {
		_, stderr, code := runAsk(t, tt.args...)
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

// gatedSources holds each Fetch until two are in flight (or a timeout),

// which only happens when the executor runs them in parallel.

// rejectOnce turns the first critic answer into a REJECT.

func TestAskCrashingAgentKeepsHistory(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	crash := filepath.Join(t.TempDir(), "nous-plugin-crash")
	require.NoError(t, os.WriteFile(crash, []byte("#!/bin/sh\necho 'boom' >&2\nexit 3\n"), 0o755))
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	agents, err := os.ReadFile(filepath.Join(rules, "agents.hcl"))
	require.NoError(t, err)
	// No fallback here: the crash itself is what this test watches.
	patched := strings.Replace(string(agents), `agent "analyst" {
  plugin   = env("NOUS_OPENAI_BASE_URL", "") != "" || env("OPENAI_API_KEY", "") != "" ? "builtin:openai" : "builtin:template"
  fallback = "builtin:template"`,
		`agent "analyst" {
  plugin   = `+askQuote(crash), 1)
	require.NotEqual(t, string(agents), patched)
	require.NoError(t, os.WriteFile(filepath.Join(rules, "agents.hcl"), []byte(patched), 0o644))

	out, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
	assert.Equal(t, 1, code, "no report: nothing answers the question")
	assert.Contains(t, stderr, "run failed")
	assert.Contains(t, stderr, "No report: the writer step h2 failed", "the reason is on stderr")
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc), "what was produced is still printed: %s", stderr)
	assert.Equal(t, runner.ResultFailed, doc.Result.Status)
	steps := doc.History.Passes[0].Steps
	require.Len(t, steps, 3)
	assert.Equal(t, engine.StatusCompleted, steps[0].Status)
	assert.Equal(t, engine.StatusCompleted, steps[1].Status)
	assert.Equal(t, engine.StatusFailed, steps[2].Status)
	assert.Contains(t, steps[2].Error, `agent "analyst"`)
	assert.Contains(t, doc.Result.Report, "h2 Format commit summary for user: failed")
}

func TestProgressPrinter(t *testing.T) {
	var b bytes.Buffer
	p := progressPrinter(&b)
	for _, ev := range []runner.Event{
		{Kind: "pass", Pass: 1},
		{Kind: "start", Step: "h0", Description: "Retrieve commit data"},
		{Kind: "end", Step: "h0", Status: string(engine.StatusInvalid)},
		{Kind: "refine", Step: "h0", Status: "MODIFY", Detail: "retrieval returned no records"},
		{Kind: "depth", Pass: 1, Status: "focused", Detail: "direct → focused (why)"},
		{Kind: "end", Step: "h1", Status: string(engine.StatusFailed), Detail: "boom"},
		{Kind: "end", Step: "h2", Status: string(engine.StatusSkipped)},
		{Kind: "done", Status: "partial", Detail: "max_passes"},
	} {
		p(ev)
	}
	assert.Equal(t, "── pass 1\n  … h0    Retrieve commit data\n  ↻ h0    invalid\n  ↻ MODIFY h0: retrieval returned no records\n"+
		"  ⇅ depth direct → focused (why)\n  ✗ h1    failed: boom\n  - h2    skipped\n── partial (max_passes)\n", b.String())
}

// fakeLLM is an OpenAI-compatible chat-completions server that plays the

// roles from their prompts: the analyst lists the context titles (in a code

// fence, with a trailing comma, as LLMs do), the critic rejects the first

// draft, the writer publishes the draft.
