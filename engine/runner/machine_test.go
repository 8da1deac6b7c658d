package runner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/engine/history"
	"github.com/stretchr/testify/assert"
)

// show renders commands compactly: "pass 1", "check", "start 0 inline",
// "skip 2 by 1", "finish converged".
func show(cmds []command) string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		switch c.op {
		case opPass:
			out[i] = fmt.Sprintf("pass %d", c.pass)
		case opSkip:
			out[i] = fmt.Sprintf("skip %d by %d", c.node, c.by)
		case opCheck:
			out[i] = "check"
		case opStart:
			out[i] = fmt.Sprintf("start %d", c.node)
			if c.inline {
				out[i] += " inline"
			}
		case opWait:
			out[i] = "wait"
		case opSettle:
			out[i] = fmt.Sprintf("settle %d", c.node)
		case opAssess:
			out[i] = "assess"
		case opRefine:
			out[i] = "refine"
		case opFinish:
			out[i] = "finish " + c.termination
		}
	}
	return strings.Join(out, ", ")
}

// walkOf is a walk over n nodes with the given edges.
func walkOf(n int, edges ...graph.Edge) *graph.Walk {
	g := graph.New(n)
	for _, e := range edges {
		g.AddEdge(e.From, e.To)
	}
	return g.Walk()
}

func TestMachine(t *testing.T) {
	// Each step is an event and the commands the core answers with.
	type step struct {
		event func(m *machine) []command
		want  string
	}
	begin := func(m *machine) []command { return m.begin(nil) }
	ok := func(m *machine) []command { return m.boundary(nil, "") }
	back := func(n int) func(m *machine) []command {
		return func(m *machine) []command { return m.returned(nil, n) }
	}
	settled := func(n int, s graph.State) func(m *machine) []command {
		return func(m *machine) []command { return m.settled(nil, n, s, false, "") }
	}
	tests := []struct {
		name    string
		walk    *graph.Walk
		workers int
		light   map[int]bool
		steps   []step
	}{
		{
			name: "a chain runs inline, one step at a time", walk: walkOf(3, graph.Edge{From: 0, To: 1}, graph.Edge{From: 1, To: 2}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, settle 0"}, {settled(0, graph.Done), "check"},
				{ok, "start 1 inline, settle 1"}, {settled(1, graph.Done), "check"},
				{ok, "start 2 inline, settle 2"}, {settled(2, graph.Done), "assess"},
				{func(m *machine) []command { return m.assessed(nil, true, true, false) }, "finish " + history.Converged},
			},
		},
		{
			name: "a fan-in runs its sources on workers and settles them in launch order", walk: walkOf(3, graph.Edge{From: 0, To: 2}, graph.Edge{From: 1, To: 2}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0, start 1, wait"}, {back(1), "wait"}, {back(0), "settle 0, settle 1"},
				{settled(0, graph.Done), ""}, {settled(1, graph.Done), "check"}, {ok, "start 2 inline, settle 2"},
			},
		},
		{
			name: "workers bound the steps running at once", walk: walkOf(3), workers: 2,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0, start 1, wait"}, {back(0), "settle 0"}, {settled(0, graph.Done), "check"},
				{ok, "start 2, wait"}, {back(2), "wait"}, {back(1), "settle 1, settle 2"},
			},
		},
		{
			name: "light steps run inline beside a worker and settle at once", walk: walkOf(4, graph.Edge{From: 0, To: 3}, graph.Edge{From: 1, To: 3}), workers: 4,
			light: map[int]bool{0: true, 2: true},
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, start 1, start 2 inline, settle 0"}, {settled(0, graph.Done), "wait"},
				{back(1), "settle 1, settle 2"}, {settled(1, graph.Done), ""}, {settled(2, graph.Done), "check"}, {ok, "start 3 inline, settle 3"}, {settled(3, graph.Done), "assess"},
			},
		},
		{
			name: "a failure skips its descendants", walk: walkOf(3, graph.Edge{From: 0, To: 1}, graph.Edge{From: 1, To: 2}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, settle 0"},
				{settled(0, graph.Failed), "skip 1 by 0, skip 2 by 1, assess"},
				{func(m *machine) []command { return m.assessed(nil, true, false, false) }, "finish " + history.Stalled},
			},
		},
		{
			name: "the deadline stops the pass", walk: walkOf(2), workers: 4,
			steps: []step{
				{begin, "pass 1, check"},
				{func(m *machine) []command { return m.boundary(nil, history.TTLExpired) }, "assess"},
				{func(m *machine) []command { return m.assessed(nil, false, true, true) }, "finish " + history.TTLExpired},
			},
		},
		{
			name: "a held step is refined into another pass", walk: walkOf(2, graph.Edge{From: 0, To: 1}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, settle 0"}, {settled(0, graph.Held), "assess"},
				{func(m *machine) []command { return m.assessed(nil, false, true, false) }, "refine"},
				{func(m *machine) []command { m.walk.Reset(0); return m.refined(nil, true, "") }, "pass 2, check"},
				{ok, "start 0 inline, settle 0"}, {settled(0, graph.Held), "assess"},
				{func(m *machine) []command { return m.assessed(nil, false, true, false) }, "refine"},
				{func(m *machine) []command { return m.refined(nil, false, history.RefineLimit) }, "finish " + history.RefineLimit},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(tt.walk, tt.workers, 3, func(n int) bool { return tt.light[n] })
			for i, s := range tt.steps {
				assert.Equal(t, s.want, show(s.event(m)), "step %d", i)
			}
		})
	}
}
