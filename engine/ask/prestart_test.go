package ask_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// starter records what Answer prestarts and which plugins it then calls.
type starter struct {
	*inProcess
	mu                sync.Mutex
	prestarts         int
	sources, agents   []string // prestarted
	calledBeforeStart bool
	usedSources       []string
	usedAgents        []string
}

var _ engine.Starter = (*starter)(nil)

func (s *starter) Prestart(_ context.Context, sources, agents []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prestarts++
	s.sources, s.agents = sources, agents
	s.calledBeforeStart = s.calls > 0
}

func (s *starter) use(list *[]string, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(*list, name) {
		*list = append(*list, name)
	}
}

func (s *starter) Fetch(ctx context.Context, src string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	s.use(&s.usedSources, src)
	return s.inProcess.Fetch(ctx, src, req, emit)
}

func (s *starter) Ground(ctx context.Context, src string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	s.use(&s.usedSources, src)
	return s.inProcess.Ground(ctx, src, req)
}

func (s *starter) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	s.use(&s.usedAgents, agent)
	return s.inProcess.Invoke(ctx, agent, req)
}

// Answer prestarts, once its plan exists and before any plugin is asked
// anything, the sources and agents the run then calls: every one it calls,
// and no other but the critic, which a writer step skips when the
// analyst's draft is empty.
func TestAnswerPrestartsWhatThePlanCalls(t *testing.T) {
	for _, tt := range []struct {
		query  string
		critic bool // the critic reviews a draft
	}{
		{"how many open issues are there?", true},
		{"what changed last week?", false},
		{"please close PAY-101", false},
	} {
		t.Run(tt.query, func(t *testing.T) {
			p := &starter{inProcess: newInProcess(t)}
			svc := ask.New(ask.Deps{Rules: defaultRules(t), Clock: func() time.Time { return now }})
			_, err := svc.Answer(context.Background(), p, ask.Request{Query: tt.query})
			require.NoError(t, err)
			assert.Equal(t, 1, p.prestarts)
			assert.False(t, p.calledBeforeStart, "prestarted before any call")
			assert.ElementsMatch(t, p.usedSources, p.sources, "sources")
			assert.Subset(t, p.agents, p.usedAgents, "every agent called was prestarted")
			want := slices.DeleteFunc(slices.Clone(p.agents), func(a string) bool { return a == sdk.RoleCritic && !tt.critic })
			assert.ElementsMatch(t, p.usedAgents, want, "agents")
		})
	}
}

func TestAnswerPrestartsOnlyTheClarificationOfABlockingPlan(t *testing.T) {
	p := &starter{inProcess: newInProcess(t)}
	svc := ask.New(ask.Deps{Rules: defaultRules(t), Clock: func() time.Time { return now }})
	_, err := svc.Answer(context.Background(), p, ask.Request{Query: "please close it"})
	require.NoError(t, err)
	assert.Empty(t, p.sources)
	assert.Equal(t, []string{sdk.RoleClarification}, p.agents)
	assert.Equal(t, p.agents, p.usedAgents)
}

func TestAnswerPrestartsNothingForAPlanWithErrors(t *testing.T) {
	p := &starter{inProcess: newInProcess(t)}
	svc := ask.New(ask.Deps{Rules: defaultRules(t)})
	_, err := svc.Answer(context.Background(), p, ask.Request{Query: "what changed?", Mode: "nosuchmode"})
	require.Error(t, err)
	assert.Zero(t, p.prestarts)
}
