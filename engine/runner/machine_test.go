package runner

import (
	"cmp"
	"fmt"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/engine/history"
	"github.com/stretchr/testify/assert"
)

// show renders m's commands compactly: "pass 1", "check", "start 0
// inline", "skip 2 by 1", "finish converged".
func show(m *machine, cmds []command) string {
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
			out[i] = "finish " + m.end
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
		name      string
		walk      *graph.Walk
		workers   int
		maxPasses int // 3 when 0
		light     map[int]bool
		inOrder   bool
		steps     []step
	}{
		{
			name: "a chain runs inline, one step at a time", walk: walkOf(3, graph.Edge{From: 0, To: 1}, graph.Edge{From: 1, To: 2}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, settle 0"}, {settled(0, graph.Done), "check"},
				{ok, "start 1 inline, settle 1"}, {settled(1, graph.Done), "check"},
				{ok, "start 2 inline, settle 2"}, {settled(2, graph.Done), "assess"},
				{func(m *machine) []command { return m.assessed(nil, assessment{converged: true, clean: true}) }, "finish " + history.Converged},
			},
		},
		{
			name: "a fan-in runs its sources on workers and settles them in launch order", walk: walkOf(3, graph.Edge{From: 0, To: 2}, graph.Edge{From: 1, To: 2}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0, start 1, wait"}, {back(1), "wait"}, {back(0), "settle 0"},
				{settled(0, graph.Done), "settle 1"}, {settled(1, graph.Done), "check"}, {ok, "start 2 inline, settle 2"},
			},
		},
		{
			// worker 1 returning first or last makes the same starts and settles
			name: "a result readies its dependents before the next is taken", walk: walkOf(4, graph.Edge{From: 0, To: 2}, graph.Edge{From: 1, To: 3}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0, start 1, wait"}, {back(1), "wait"}, {back(0), "settle 0"},
				{settled(0, graph.Done), "check"}, {ok, "start 2, settle 1"}, {settled(1, graph.Done), "check"}, {ok, "start 3, wait"},
			},
		},
		{
			name: "a result readies its dependents before the next returns", walk: walkOf(4, graph.Edge{From: 0, To: 2}, graph.Edge{From: 1, To: 3}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0, start 1, wait"}, {back(0), "settle 0"},
				{settled(0, graph.Done), "check"}, {ok, "start 2, wait"}, {back(1), "settle 1"}, {settled(1, graph.Done), "check"}, {ok, "start 3, wait"},
			},
		},
		{
			name: "workers bound the steps running at once", walk: walkOf(3), workers: 2,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0, start 1, wait"}, {back(0), "settle 0"}, {settled(0, graph.Done), "check"},
				{ok, "start 2, wait"}, {back(2), "wait"}, {back(1), "settle 1"}, {settled(1, graph.Done), "settle 2"},
			},
		},
		{
			name: "light steps run inline beside a worker and settle at once", walk: walkOf(4, graph.Edge{From: 0, To: 3}, graph.Edge{From: 1, To: 3}), workers: 4,
			light: map[int]bool{0: true, 2: true},
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, start 1, start 2 inline, settle 0, settle 2"}, {settled(0, graph.Done), ""},
				{settled(2, graph.Done), "wait"}, {back(1), "settle 1"}, {settled(1, graph.Done), "check"}, {ok, "start 3 inline, settle 3"}, {settled(3, graph.Done), "assess"},
			},
		},
		{
			// 2 would start only after 0 returned if 1 queued behind it
			name: "an inline step does not wait behind another chain's worker", walk: walkOf(3, graph.Edge{From: 1, To: 2}), workers: 4,
			light: map[int]bool{1: true},
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0, start 1 inline, settle 1"}, {settled(1, graph.Done), "check"},
				{ok, "start 2, wait"}, {back(2), "wait"}, {back(0), "settle 0"}, {settled(0, graph.Done), "settle 2"}, {settled(2, graph.Done), "assess"},
			},
		},
		{
			name: "in launch order an inline step waits behind an older worker", walk: walkOf(3, graph.Edge{From: 1, To: 2}), workers: 4,
			light: map[int]bool{1: true}, inOrder: true,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0, start 1 inline, wait"}, {back(0), "settle 0, settle 1"}, {settled(0, graph.Done), ""},
				{settled(1, graph.Done), "check"}, {ok, "start 2 inline, settle 2"}, {settled(2, graph.Done), "assess"},
			},
		},
		{
			name: "a failure skips its descendants", walk: walkOf(3, graph.Edge{From: 0, To: 1}, graph.Edge{From: 1, To: 2}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, settle 0"},
				{settled(0, graph.Failed), "skip 1 by 0, skip 2 by 1, assess"},
				{func(m *machine) []command { return m.assessed(nil, assessment{converged: true}) }, "finish " + history.Stalled},
			},
		},
		{
			name: "the deadline stops the pass", walk: walkOf(2), workers: 4,
			steps: []step{
				{begin, "pass 1, check"},
				{func(m *machine) []command { return m.boundary(nil, history.TTLExpired) }, "assess"},
				{func(m *machine) []command { return m.assessed(nil, assessment{clean: true, expired: true}) }, "finish " + history.TTLExpired},
			},
		},
		{
			name: "a held step is refined into another pass", walk: walkOf(2, graph.Edge{From: 0, To: 1}), workers: 4,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, settle 0"}, {settled(0, graph.Held), "assess"},
				{func(m *machine) []command { return m.assessed(nil, assessment{clean: true}) }, "refine"},
				{func(m *machine) []command { m.walk.Reset(0); return m.refined(nil, true, "") }, "pass 2, check"},
				{ok, "start 0 inline, settle 0"}, {settled(0, graph.Held), "assess"},
				{func(m *machine) []command { return m.assessed(nil, assessment{clean: true}) }, "refine"},
				{func(m *machine) []command { return m.refined(nil, false, history.RefineLimit) }, "finish " + history.RefineLimit},
			},
		},
		{
			name: "a deeper depth gives a one-pass run another pass", walk: walkOf(1), workers: 4, maxPasses: 1,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, settle 0"}, {settled(0, graph.Held), "assess"},
				{func(m *machine) []command { return m.assessed(nil, assessment{clean: true, maxPasses: 2}) }, "refine"},
				{func(m *machine) []command { m.walk.Reset(0); return m.refined(nil, true, "") }, "pass 2, check"},
				{ok, "start 0 inline, settle 0"}, {settled(0, graph.Held), "assess"},
				{func(m *machine) []command { return m.assessed(nil, assessment{clean: true}) }, "finish " + history.MaxPasses},
			},
		},
		{
			name: "a shallower depth ends the run at its passes", walk: walkOf(1), workers: 4, maxPasses: 3,
			steps: []step{
				{begin, "pass 1, check"}, {ok, "start 0 inline, settle 0"}, {settled(0, graph.Held), "assess"},
				{func(m *machine) []command { return m.assessed(nil, assessment{clean: true, maxPasses: 1}) }, "finish " + history.MaxPasses},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(tt.walk, tt.workers, cmp.Or(tt.maxPasses, 3), func(n int) bool { return tt.light[n] })
			m.inOrder = tt.inOrder
			for i, s := range tt.steps {
				assert.Equal(t, s.want, show(m, s.event(m)), "step %d", i)
			}
		})
	}
}

// world is a scripted run: each step's outcome per pass, workers that
// return in reverse launch order, and a refinement that resets the held
// steps. It logs every call and records every answer it gives.
type world struct {
	m        *machine
	outcomes map[int][]graph.State // by node, one per run of it
	runs     map[int]int
	running  []int
	log      []string
	answers  []any
}

func (w *world) note(format string, args ...any) { w.log = append(w.log, fmt.Sprintf(format, args...)) }
func (w *world) answer(a any) any                { w.answers = append(w.answers, a); return a }

func (w *world) pass(n int)        { w.note("pass %d", n) }
func (w *world) skip(node, by int) { w.note("skip %d by %d", node, by) }
func (w *world) boundary() string  { w.note("check"); return w.answer("").(string) }
func (w *world) start(node int, inline bool) {
	w.note("start %d inline=%v", node, inline)
	if !inline {
		w.running = append(w.running, node)
	}
}

func (w *world) wait() int {
	n := w.running[len(w.running)-1]
	w.running = w.running[:len(w.running)-1]
	w.note("wait")
	return w.answer(n).(int)
}

func (w *world) settle(node int) outcome {
	w.note("settle %d", node)
	o := outcome{state: w.outcomes[node][w.runs[node]]}
	w.runs[node]++
	return w.answer(o).(outcome)
}

func (w *world) assess() assessment {
	w.note("assess")
	held := false
	for n := range w.m.walk.Len() {
		held = held || w.m.walk.State(n) == graph.Held
	}
	return w.answer(assessment{converged: !held}).(assessment)
}

func (w *world) refine() (bool, string) {
	w.note("refine")
	for n := range w.m.walk.Len() {
		if w.m.walk.State(n) == graph.Held {
			w.m.walk.Reset(n)
		}
	}
	w.answer(true)
	return true, ""
}

// replay answers with a recorded run's answers instead of doing anything.
type replay struct {
	m       *machine
	answers []any
	log     []string
}

func (r *replay) next() any { a := r.answers[0]; r.answers = r.answers[1:]; return a }
func (r *replay) note(format string, args ...any) {
	r.log = append(r.log, fmt.Sprintf(format, args...))
}
func (r *replay) pass(n int)                  { r.note("pass %d", n) }
func (r *replay) skip(node, by int)           { r.note("skip %d by %d", node, by) }
func (r *replay) boundary() string            { r.note("check"); return r.next().(string) }
func (r *replay) start(node int, inline bool) { r.note("start %d inline=%v", node, inline) }
func (r *replay) wait() int                   { r.note("wait"); return r.next().(int) }
func (r *replay) settle(node int) outcome     { r.note("settle %d", node); return r.next().(outcome) }
func (r *replay) assess() assessment          { r.note("assess"); return r.next().(assessment) }
func (r *replay) refine() (applied bool, _ string) { // the walk changes as the recorded refinement changed it
	r.note("refine")
	for n := range r.m.walk.Len() {
		if r.m.walk.State(n) == graph.Held {
			r.m.walk.Reset(n)
		}
	}
	return r.next().(bool), ""
}

func TestMachineReplaysARecordedRun(t *testing.T) {
	// 0 and 1 feed 2, which feeds 3; 1 is held in pass 1 and refined, 3 fails.
	build := func() *machine {
		return newMachine(walkOf(4, graph.Edge{From: 0, To: 2}, graph.Edge{From: 1, To: 2}, graph.Edge{From: 2, To: 3}), 2, 3,
			func(int) bool { return false })
	}
	live := &world{m: build(), runs: map[int]int{}, outcomes: map[int][]graph.State{
		0: {graph.Done}, 1: {graph.Held, graph.Done}, 2: {graph.Done}, 3: {graph.Failed},
	}}
	termination := live.m.drive(live)
	assert.Equal(t, history.Stalled, termination)
	assert.Equal(t, []string{
		"pass 1", "check", "start 0 inline=false", "start 1 inline=false", "wait", "wait", "settle 0", "settle 1", "assess", "refine",
		"pass 2", "check", "start 1 inline=true", "settle 1", "check", "start 2 inline=true", "settle 2", "check", "start 3 inline=true", "settle 3", "assess",
	}, live.log)

	again := &replay{m: build(), answers: live.answers}
	assert.Equal(t, termination, again.m.drive(again))
	assert.Equal(t, live.log, again.log, "the same answers give the same run")
	assert.Empty(t, again.answers, "every recorded answer used")
}
