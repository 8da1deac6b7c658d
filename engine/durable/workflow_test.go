package durable

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/plugins/file"
	"github.com/nous-dev/nous/plugins/git"
	"github.com/nous-dev/nous/plugins/template"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
)

var now = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// inProcess serves the issue tracker (youtrack) from the issue fixtures,
// every other source from a git repository and every agent with the template plugin, all
// in this process; it counts its calls and can fail them.
type inProcess struct {
	git    *git.Source
	issues *file.Source
	agent  sdk.Agent

	mu    sync.Mutex
	calls map[string]int
	fail  func(op, name string, attempt int) error // nil: none fails
}

func newInProcess(t testing.TB, repo string) *inProcess {
	cfg := func(v map[string]string) []byte {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return b
	}
	g := git.New()
	_, err := g.Configure(context.Background(), cfg(map[string]string{"path": repo}))
	require.NoError(t, err)
	f := file.New()
	_, err = f.Configure(context.Background(), cfg(map[string]string{"path": filepath.Join("..", "..", "examples", "data", "issues.jsonl")}))
	require.NoError(t, err)
	return &inProcess{git: g, issues: f, agent: template.New(), calls: map[string]int{}}
}

func (p *inProcess) called(op, name string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls[op+":"+name]++
	if p.fail != nil {
		return p.fail(op, name, p.calls[op+":"+name])
	}
	return nil
}

// total is how many calls were made in all.
func (p *inProcess) total() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.calls {
		n += c
	}
	return n
}

func (p *inProcess) count(op, name string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[op+":"+name]
}

func (p *inProcess) source(name string) interface {
	Fetch(context.Context, sdk.FetchRequest, func(sdk.Record) error) error
	Ground(context.Context, sdk.GroundRequest) (sdk.GroundResponse, error)
} {
	if name == "youtrack" {
		return p.issues
	}
	return p.git
}

func (p *inProcess) Fetch(ctx context.Context, name string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	if err := p.called("fetch", name); err != nil {
		return err
	}
	return p.source(name).Fetch(ctx, req, emit)
}

func (p *inProcess) Ground(ctx context.Context, name string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	if err := p.called("ground", name); err != nil {
		return sdk.GroundResponse{}, err
	}
	return p.source(name).Ground(ctx, req)
}

func (p *inProcess) Describe(_ context.Context, name string) (sdk.SourceInfo, error) {
	if err := p.called("describe", name); err != nil {
		return sdk.SourceInfo{}, err
	}
	return sdk.SourceInfo{Name: name}, nil
}

func (p *inProcess) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	if err := p.called("invoke", agent); err != nil {
		return sdk.InvokeResponse{}, err
	}
	return p.agent.Invoke(ctx, req)
}

// defaultRules are the embedded defaults with an issue tracker configured
// (the fixtures serve it).
func defaultRules(t testing.TB) *rules.Ruleset {
	t.Setenv("YOUTRACK_TOKEN", "test-token")
	t.Setenv("YOUTRACK_URL", "https://youtrack.example.com")
	rs, diags := rules.LoadFS(examples.DefaultRules())
	require.False(t, diags.HasErrors(), diags.Error())
	return rs
}

// gitRepo makes a repository with a short history: three authors, two
// directories, a tag, dated before now.
func gitRepo(t testing.TB) string {
	dir := t.TempDir()
	run := func(env []string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	}
	run(nil, "init", "-q", "-b", "main")
	for i, c := range []struct{ who, file, msg, date string }{
		{"Ada", "payments/charge.go", "payments: charge cards", "2026-11-02T10:00:00Z"},
		{"Bob", "payments/refund.go", "payments: refunds", "2026-11-09T10:00:00Z"},
		{"Ada", "docs/README.md", "docs: how to refund", "2026-11-16T10:00:00Z"},
		{"Cy", "payments/charge.go", "payments: retry declined charges", "2026-11-18T10:00:00Z"},
	} {
		path := filepath.Join(dir, c.file)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("line\n", i+1)), 0o644))
		env := []string{"GIT_AUTHOR_NAME=" + c.who, "GIT_AUTHOR_EMAIL=" + strings.ToLower(c.who) + "@example.com", "GIT_AUTHOR_DATE=" + c.date,
			"GIT_COMMITTER_NAME=" + c.who, "GIT_COMMITTER_EMAIL=" + strings.ToLower(c.who) + "@example.com", "GIT_COMMITTER_DATE=" + c.date}
		run(env, "add", ".")
		run(env, "commit", "-q", "-m", c.msg)
		if i == 1 {
			run(env, "tag", "v1.0.0")
		}
	}
	return dir
}

// testEnv is a workflow test environment with nous's workflow and the
// activities on p registered, payloads encoded as a worker encodes them.
func testEnv(t *testing.T, rs *rules.Ruleset, p ask.Plugins) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(log.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := s.NewTestWorkflowEnvironment()
	env.SetDataConverter(dataConverter)
	env.SetWorkerOptions(workerOptions())
	// The suite fails a run that takes 3 s of real time; under the race
	// detector a thousand records take longer than that.
	env.SetTestTimeout(2 * time.Minute)
	red := redact.New()
	register(env, NewWorkflow(rs, red))
	acts := &Activities{Plugins: p, Redactor: red}
	env.RegisterActivityWithOptions(acts.Fetch, activity.RegisterOptions{Name: activityFetch})
	env.RegisterActivityWithOptions(acts.Invoke, activity.RegisterOptions{Name: activityInvoke})
	env.RegisterActivityWithOptions(acts.Ground, activity.RegisterOptions{Name: activityGround})
	env.RegisterActivityWithOptions(acts.Describe, activity.RegisterOptions{Name: activityDescribe})
	return env
}

// inMemory answers in as `nous ask` does, rendered in its format.
func inMemory(t *testing.T, rs *rules.Ruleset, p ask.Plugins, in Input) (string, *runner.Result) {
	svc := ask.New(ask.Deps{Rules: rs, Clock: func() time.Time { return in.Now }, Redactor: redact.New(), WithStats: in.WithStats})
	res, err := svc.Answer(context.Background(), p, ask.Request{Query: in.Query, Mode: in.Mode, ID: in.ID})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, report.Render(&b, in.Formats[0], res, report.Options{Trace: in.Trace, Redactor: redact.New()}))
	return b.String(), res
}

func TestWorkflowAnswersAsTheInMemoryExecutor(t *testing.T) {
	rs := defaultRules(t)
	repo := gitRepo(t)
	for _, q := range []string{
		"what changed in payments this month?",
		"who changed the most in November 2026?",
		"which files changed the most since v1.0.0?",
		"how many open issues are there?",
		"what is the status of the project?",
	} {
		t.Run(q, func(t *testing.T) {
			in := Input{Query: q, ID: "run-1", Rules: rs.Digest(), Formats: []string{"json"}, WithStats: true, Now: now}
			want, res := inMemory(t, rs, newInProcess(t, repo), in)
			require.NotEqual(t, runner.ResultFailed, res.Status, "the fixture answers the question: %s", res.Error)

			env := testEnv(t, rs, newInProcess(t, repo))
			env.ExecuteWorkflow(WorkflowName, in)
			require.True(t, env.IsWorkflowCompleted())
			require.NoError(t, env.GetWorkflowError())
			var out Output
			require.NoError(t, env.GetWorkflowResult(&out))
			assert.Equal(t, res.Status, out.Status)
			assert.Equal(t, res.History.Termination, out.Termination)
			assert.JSONEq(t, want, string(out.Reports["json"]), "the durable run's result, history and trace are the in-memory run's")
		})
	}
}
