package ask_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/plugins/file"
	"github.com/nous-dev/nous/plugins/template"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inProcess serves every source from the issue fixtures and every agent
// with the template plugin, in-process; the agents in down are unreachable.
type inProcess struct {
	source *file.Source
	agent  sdk.Agent
	down   map[string]bool
	mu     sync.Mutex
	calls  int
}

func newInProcess(t testing.TB) *inProcess {
	config, err := json.Marshal(map[string]string{"path": filepath.Join("..", "..", "examples", "data", "issues.jsonl")})
	require.NoError(t, err)
	src := file.New()
	_, err = src.Configure(context.Background(), config)
	require.NoError(t, err)
	return &inProcess{source: src, agent: template.New()}
}

func (p *inProcess) called() {
	p.mu.Lock()
	p.calls++
	p.mu.Unlock()
}

func (p *inProcess) Fetch(ctx context.Context, _ string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	p.called()
	return p.source.Fetch(ctx, req, emit)
}

func (p *inProcess) Ground(ctx context.Context, _ string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	p.called()
	return p.source.Ground(ctx, req)
}

// Describe says every source may serve any kind: each is the fixtures.
func (p *inProcess) Describe(context.Context, string) (sdk.SourceInfo, error) {
	p.called()
	return sdk.SourceInfo{Name: "fixtures"}, nil
}

func (p *inProcess) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	p.called()
	if p.down[agent] {
		return sdk.InvokeResponse{}, sdk.Errorf(sdk.KindUnavailable, "agent %s: connection refused", agent)
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

var now = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func TestAnswer(t *testing.T) {
	for _, tt := range []struct {
		name       string
		mode       string
		fallback   bool // the writer's plugin is down and it falls back to the template
		wantStatus string
		wantCaveat string
		wantWarn   string
	}{
		{name: "answers", wantStatus: runner.ResultSuccess},
		{name: "in a named mode", mode: "discovery", wantStatus: runner.ResultSuccess},
		{name: "a fallback agent answers with a caveat", fallback: true, wantStatus: runner.ResultSuccess,
			wantCaveat: `Agent "writer" (builtin:openai) could not be reached, so the fallback builtin:template answered in its place.`,
			wantWarn:   `nous: warning: agent "writer" (builtin:openai) is unreachable, so builtin:template answers in its place`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs := defaultRules(t)
			p := newInProcess(t)
			if tt.fallback {
				for _, ag := range rs.Agents {
					if ag.Name == "writer" {
						ag.Plugin, ag.Fallback = "builtin:openai", "builtin:template"
					}
				}
				p.down = map[string]bool{"writer": true}
			}
			var warn bytes.Buffer
			var events int
			svc := ask.New(ask.Deps{Rules: rs, Clock: func() time.Time { return now },
				Warnings: &warn, Progress: func(runner.Event) { events++ }})
			res, err := svc.Answer(context.Background(), p, ask.Request{Query: "how many open issues are there?", Mode: tt.mode})
			require.NoError(t, err)
			assert.Equal(t, tt.wantStatus, res.Status, res.Error)
			assert.NotEmpty(t, res.Report)
			assert.NotZero(t, events, "progress is told")
			if tt.wantCaveat == "" {
				assert.Empty(t, warn.String())
				return
			}
			assert.Contains(t, res.Caveats, tt.wantCaveat)
			assert.True(t, strings.HasPrefix(res.Report, "Caveat: "+tt.wantCaveat), "the report opens with the caveat:\n%s", res.Report)
			assert.Contains(t, warn.String(), tt.wantWarn)
		})
	}
}

func TestAnswerDoesNotRunAPlanWithErrors(t *testing.T) {
	p := newInProcess(t)
	svc := ask.New(ask.Deps{Rules: defaultRules(t)})
	res, err := svc.Answer(context.Background(), p, ask.Request{Query: "what changed?", Mode: "nosuchmode"})
	assert.Nil(t, res)
	var pe *ask.PlanError
	require.ErrorAs(t, err, &pe)
	require.NotEmpty(t, pe.Diagnostics)
	assert.Equal(t, "unknown_mode", pe.Diagnostics[0].Code)
	assert.Contains(t, err.Error(), `mode "nosuchmode" is not defined`)
	assert.Zero(t, p.calls, "no plugin is asked anything")
}

// failingGround grounds with an error that quotes a secret.
type failingGround struct{ *inProcess }

func (failingGround) Ground(context.Context, string, sdk.GroundRequest) (sdk.GroundResponse, error) {
	return sdk.GroundResponse{}, fmt.Errorf("token s3cr3t-token rejected")
}

func TestAnswerMasksSecrets(t *testing.T) {
	p := failingGround{newInProcess(t)}
	svc := ask.New(ask.Deps{Rules: defaultRules(t), Clock: func() time.Time { return now },
		Redactor: redact.New("s3cr3t-token")})
	res, err := svc.Answer(context.Background(), p, ask.Request{Query: "how many open issues are there?"})
	require.NoError(t, err, "a source that cannot ground is noted, not an error")
	out, err := json.Marshal(res)
	require.NoError(t, err)
	assert.Contains(t, string(out), "rejected", "the grounding failure is noted")
	assert.NotContains(t, string(out), "s3cr3t-token")
}

// A planner given in Deps answers as the one New compiles, and services
// sharing it answer concurrently.
func TestAnswerWithSharedPlanner(t *testing.T) {
	rs := defaultRules(t)
	clock := func() time.Time { return now }
	render := func(res *runner.Result) string {
		out, err := json.Marshal(res.Plan)
		require.NoError(t, err)
		return res.Report + string(out)
	}
	want, err := ask.New(ask.Deps{Rules: rs, Clock: clock}).Answer(context.Background(), newInProcess(t), ask.Request{Query: "how many open issues are there?", ID: "run-1"})
	require.NoError(t, err)
	shared := engine.NewPlanner(rs)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			got, err := ask.New(ask.Deps{Rules: rs, Planner: shared, Clock: clock}).Answer(context.Background(), newInProcess(t), ask.Request{Query: "how many open issues are there?", ID: "run-1"})
			assert.NoError(t, err)
			assert.Equal(t, render(want), render(got))
		})
	}
	wg.Wait()
}

// benchQuestion is BenchmarkAnswer's question: one the issue fixtures
// answer in full.
const benchQuestion = "how many open issues are there?"

// BenchmarkAnswer answers a question with the default rules, the template
// agent for every role and the issue fixtures as every source, all
// in-process: plan, ground, run and compose.
func BenchmarkAnswer(b *testing.B) {
	p := newInProcess(b)
	svc := ask.New(ask.Deps{Rules: defaultRules(b), Clock: func() time.Time { return now }})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := svc.Answer(ctx, p, ask.Request{Query: benchQuestion})
		if err != nil || res.Status != runner.ResultSuccess {
			b.Fatal(err, res.Status)
		}
	}
}
