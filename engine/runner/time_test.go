package runner

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
)

// steppedTime is a run's time that moves only when a call is made: each
// WithDeadline advances it by step and records the deadline it was given.
type steppedTime struct {
	mu        sync.Mutex
	now       time.Time
	step      time.Duration
	deadlines []time.Time
}

func (s *steppedTime) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

func (s *steppedTime) WithDeadline(ctx context.Context, t time.Time) (context.Context, context.CancelFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deadlines = append(s.deadlines, t)
	s.now = s.now.Add(s.step)
	return context.WithCancel(ctx) // no real deadline: only this clock counts
}

// countingPool runs every f inline at Go and hands the values back in order.
type countingPool struct {
	started int
	done    []int
}

func (p *countingPool) Go(ctx context.Context, f func(context.Context) int) {
	p.started++
	p.done = append(p.done, f(ctx))
}

func (p *countingPool) Next() int {
	n := p.done[0]
	p.done = p.done[1:]
	return n
}

func TestRunTimeMeasuresTheTTL(t *testing.T) {
	rs := loadRules(t, retrievalCheck+"loop {\n  max_passes = 10\n  ttl = \"1h\"\n  refine_per_step = 10\n}\n")
	empty := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return nil, nil },
	}}
	clock := &steppedTime{now: fixedNow, step: 61 * time.Minute}
	res, err := New(empty, standardAgents(), Options{Clock: fixedClock, Time: clock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	assert.Equal(t, history.TTLExpired, res.History.Termination, "the run's own clock passed the hour; the real one did not")
	assert.Len(t, res.History.Passes, 1, "the first call took the run past its hour")
	assert.Equal(t, []string{`No records: "git" answered with none that answer the question, and the time ran out (TTL 1h0m0s) before it could be asked another way.`},
		res.Caveats, "the source answered: it is not said to be missing")
	require.NotEmpty(t, clock.deadlines)
	assert.Equal(t, fixedNow.Add(time.Hour), clock.deadlines[0], "a call's deadline is the TTL's end on the run's clock")
}

func TestAgentDeadlineIsTheEarlierOfTTLAndTimeout(t *testing.T) {
	src := strings.Replace(baseRules, `agent "writer" { plugin = "builtin:template" }`, "agent \"writer\" {\n  plugin  = \"builtin:template\"\n  timeout = \"30s\"\n}", 1)
	require.NotEqual(t, baseRules, src)
	rs, diags := rules.Parse("test.hcl", []byte(src))
	require.False(t, diags.HasErrors(), diags.Error())
	clock := &steppedTime{now: fixedNow}
	_, err := New(gitSource(commits(2)), standardAgents(), Options{Clock: fixedClock, Time: clock}).Run(context.Background(), commitChain(rs, "discovery"))
	require.NoError(t, err)
	ttlEnd := fixedNow.Add(time.Minute) // the base rules' TTL
	require.NotEmpty(t, clock.deadlines)
	assert.Equal(t, ttlEnd, clock.deadlines[0], "the fetch has the TTL's end")
	assert.Contains(t, clock.deadlines, fixedNow.Add(30*time.Second), "the writer's own timeout ends before the TTL")
}

func TestRunWorkersComeFromTheOptions(t *testing.T) {
	rs := loadRules(t, "")
	var pools []*countingPool
	workers := func(size int) Pool {
		p := &countingPool{}
		pools = append(pools, p)
		return p
	}
	plan := buildPlan(rs, "what changed?", "discovery", nil,
		stepSpec{id: "h0", desc: "Retrieve commits", action: "retrieve", retrieve: []planSpec{{source: "git", priority: 10}}},
		stepSpec{id: "h1", desc: "Retrieve more commits", action: "retrieve", retrieve: []planSpec{{source: "git", priority: 5}}},
		stepSpec{id: "h2", desc: "Format the summary", action: "agent", role: "writer", deps: []string{"h0", "h1"}},
	)
	res, err := New(gitSource(commits(3)), standardAgents(), Options{Clock: fixedClock, Workers: workers}).Run(context.Background(), plan)
	require.NoError(t, err)
	assert.Equal(t, ResultSuccess, res.Status)
	require.Len(t, pools, 1, "one pool a run")
	assert.Equal(t, 2, pools[0].started, "the two retrievals overlap on workers; the writer, alone, runs inline")
}
