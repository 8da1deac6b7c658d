package runner

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/require"
)

// jitter sleeps up to 3ms, so parallel steps return in a random order.
func jitter() { time.Sleep(rand.N(3 * time.Millisecond)) }

// TestOrderIgnoresInterleaving runs parallel branches whose sources and
// agents answer after random delays: the trace, the history and the
// result must come out byte-identical every time.
func TestOrderIgnoresInterleaving(t *testing.T) {
	rs := loadRules(t, `
check "retrieval_noted" {
  applies = "step.action == 'retrieve'"
  assert  = "false"
  message = "noted at settle"
  on_fail = "warn"
}
`)
	run := func() string {
		src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
			"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { jitter(); return commits(3), nil },
			"forum": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
				jitter()
				return []sdk.Record{{ID: "p1", Source: "forum"}}, nil
			},
		}}
		agents := standardAgents()
		for role, fn := range agents.roles {
			agents.roles[role] = func(req sdk.InvokeRequest) (string, error) { jitter(); return fn(req) }
		}
		plan := buildPlan(rs, "status?", "discovery", nil,
			stepSpec{id: "h0", desc: "commits", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
			stepSpec{id: "h1", desc: "posts", action: "retrieve", retrieve: []planSpec{{source: "forum"}}},
			stepSpec{id: "h2", desc: "more commits", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
			stepSpec{id: "h3", desc: "count commits", action: "aggregate", deps: []string{"h0"}},
			stepSpec{id: "h4", desc: "read posts", action: "agent", role: "analyst", deps: []string{"h1"}},
			stepSpec{id: "h5", desc: "rank commits", action: "rank", deps: []string{"h2"}},
			stepSpec{id: "h6", desc: "report", action: "agent", role: "writer", deps: []string{"h3", "h4", "h5"}},
		)
		res, err := New(src, agents, Options{Clock: fixedClock, ExecutionID: "run-1"}).Run(context.Background(), plan)
		require.NoError(t, err)
		b, err := json.MarshalIndent(struct {
			R *Result
			H any
			T []trace.Entry
		}{res, res.History, res.Trace}, "", " ") // indented: a difference shows as lines
		require.NoError(t, err)
		return string(b)
	}
	first := run()
	for i := range 40 {
		require.Equal(t, first, run(), "run %d", i+2)
	}
}
