package runner

import (
	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/engine/history"
)

// op is what the decision core asks its driver to do.
type op uint8

const (
	opPass   op = iota // begin pass number pass
	opSkip             // record node as skipped, blocked by upstream by
	opCheck            // check the deadline and cancellation; answer with boundary
	opStart            // launch node; inline: run it here, else on a worker that answers with returned
	opWait             // wait for a worker; answer with returned
	opSettle           // validate and record node's result; answer with settled
	opAssess           // assess the pass; answer with assessed
	opRefine           // apply the refinements validation asked for; answer with refined
	opFinish           // finish the run, ended as end says
)

// effects carries out the decision core's commands: every side effect of
// a run happens behind it, and each answer is the event the core is told
// next. A durable workflow would implement it with activities; replaying
// a recorded run implements it with the recorded answers.
type effects interface {
	pass(n int)                             // opPass
	skip(node, by int)                      // opSkip
	boundary() string                       // opCheck: why the run must stop now, or ""
	start(node int, inline bool)            // opStart: inline runs the step before returning
	wait() int                              // opWait: the node a worker finished
	settle(node int) outcome                // opSettle
	assess() assessment                     // opAssess
	refine() (applied bool, refusal string) // opRefine: the walk already holds what changed
}

// outcome is what settling a step tells the core.
type outcome struct {
	state graph.State // where the step now stands in the walk
	fatal bool        // no refinement can help: the run fails
	stop  string      // why the run must stop (ttl, cancelled), or ""
}

// assessment is what assessing a pass tells the core.
type assessment struct {
	converged bool // nothing left to refine or run
	clean     bool // no step failed or was skipped
	expired   bool // the TTL ran out
	// maxPasses is the run's pass budget from now on, when re-assessing
	// its depth changed it; 0 keeps it.
	maxPasses int
}

// command is one thing the decision core decided. It holds no pointers,
// so the queue of them costs the garbage collector nothing.
type command struct {
	op       op
	node, by int
	pass     int
	inline   bool // opStart: nothing to overlap with, so no worker
}

// machine is a run's decision core: the loop of passes over the plan's
// walk, as a pure state machine. Each event (a worker returned, a step
// settled with an outcome, the boundary was checked, a pass was assessed,
// refinements applied) appends the commands it leads to onto the queue q;
// drive carries them out through effects, which does every side effect.
// The core decides the same way for the same events, so a recorded run
// replays.
type machine struct {
	walk      *graph.Walk // the steps, by node
	workers   int
	maxPasses int
	light     func(node int) bool // runs without I/O: inline, never on a worker
	inOrder   bool                // settle inline steps behind older workers (Options.SettleInLaunchOrder)

	pass     int
	running  []int   // launched and not settled, in launch order
	held     []where // by node: where the result of its run is
	settling int     // settles asked for and not yet answered
	stop     string  // termination forced at a boundary (ttl, cancelled)
	fatal    bool    // a step failed in a way no refinement can help
	end      string  // the termination, once opFinish is decided
}

// where is where the result of a step's run is.
type where uint8

const (
	away   where = iota // on a worker still running it
	back                // its worker returned it
	inHand              // it ran inline, so it was back as it started
)

func newMachine(walk *graph.Walk, workers, maxPasses int, light func(node int) bool) *machine {
	return &machine{walk: walk, workers: workers, maxPasses: maxPasses, light: light, running: make([]int, 0, workers)}
}

// drive runs the loop to its end, carrying out every command through fx,
// and returns the termination.
func (m *machine) drive(fx effects) string {
	var room [16]command // on the stack: the queue starts over whenever it is drained, so it rarely outgrows this
	q := m.begin(room[:0])
	for i := 0; i < len(q); i++ {
		switch c := q[i]; c.op {
		case opPass:
			fx.pass(c.pass)
		case opSkip:
			fx.skip(c.node, c.by)
		case opCheck:
			q = m.boundary(q, fx.boundary())
		case opStart:
			fx.start(c.node, c.inline)
		case opWait:
			q = m.returned(q, fx.wait())
		case opSettle:
			o := fx.settle(c.node)
			q = m.settled(q, c.node, o.state, o.fatal, o.stop)
		case opAssess:
			a := fx.assess()
			q = m.assessed(q, a)
		case opRefine:
			applied, refusal := fx.refine()
			q = m.refined(q, applied, refusal)
		case opFinish:
			return m.end
		}
		if i == len(q)-1 { // drained: start over at the front
			q, i = q[:0], -1
		}
	}
	panic("runner: the decision core stopped without finishing the run") // a bug: every path ends in opFinish
}

// begin starts the first pass.
func (m *machine) begin(q []command) []command {
	m.pass = 1
	return m.schedule(append(q, command{op: opPass, pass: 1}))
}

// schedule decides what the pass does next: skip what a failure blocks,
// then start what is ready (after a boundary check), else settle the
// oldest running step once its result is back, else end the pass.
func (m *machine) schedule(q []command) []command {
	for s, ok := m.walk.Skip(); ok; s, ok = m.walk.Skip() {
		q = append(q, command{op: opSkip, node: s.Node, by: s.By})
	}
	switch {
	case m.stop == "" && !m.fatal && len(m.running) < m.workers && m.walk.Ready():
		return append(q, command{op: opCheck})
	case len(m.running) == 0:
		return append(q, command{op: opAssess})
	}
	return m.collect(q)
}

// boundary is the answer to opCheck: why the run must stop, or "".
// Without a reason it starts every ready step the workers allow, in
// node order. A light step, or a lone step with nothing to overlap, runs
// inline: a worker would only add a goroutine hand-off.
func (m *machine) boundary(q []command, stop string) []command {
	if stop != "" {
		m.stop = stop
		return m.schedule(q)
	}
	idle, first := len(m.running) == 0, len(q)
	for len(m.running) < m.workers {
		n, ok := m.walk.Start()
		if !ok {
			break
		}
		m.running = append(m.running, n)
		if n >= len(m.held) { // the walk grew
			m.held = append(m.held, make([]where, m.walk.Len()-len(m.held))...)
		}
		inline := m.light(n)
		m.held[n] = away
		if inline {
			m.held[n] = inHand
		}
		q = append(q, command{op: opStart, node: n, inline: inline})
	}
	if idle && len(q) == first+1 {
		q[first].inline, m.held[q[first].node] = true, inHand
	}
	return m.schedule(q)
}

// returned is told that node's worker is done.
func (m *machine) returned(q []command, n int) []command {
	m.held[n] = back
	return m.schedule(q)
}

// collect settles the steps that ran inline, wherever they stand among
// the running, else the oldest running step once its worker has returned
// it (with collectOldest), else waits for a worker. Inline steps do not
// queue behind a worker: a chain of them readies its next agent or
// retrieval step while another chain's worker is still out, so
// independent chains overlap.
func (m *machine) collect(q []command) []command {
	if !m.inOrder {
		kept, n := m.running[:0], 0
		for _, node := range m.running {
			if m.held[node] == inHand {
				q = append(q, command{op: opSettle, node: node})
				n++
			} else {
				kept = append(kept, node)
			}
		}
		if n > 0 {
			m.running, m.settling = kept, n
			return q
		}
	}
	return m.collectOldest(q)
}

// collectOldest settles the oldest running step once its result is back,
// and the inline steps launched right after it; it waits for a worker
// while the oldest is away. A worker's result is taken only when it is the
// oldest, and what it makes ready starts before the next is taken, so the
// order of starts and settles (and with it the trace and the history)
// depends on the plan and the answers, never on which worker happened to
// finish first.
func (m *machine) collectOldest(q []command) []command {
	if m.held[m.running[0]] == away {
		return append(q, command{op: opWait})
	}
	n := 1
	for n < len(m.running) && m.held[m.running[n]] == inHand {
		n++
	}
	for _, node := range m.running[:n] {
		q = append(q, command{op: opSettle, node: node})
	}
	m.running = append(m.running[:0], m.running[n:]...)
	m.settling = n
	return q
}

// settled is told node's outcome after validation, whether it is fatal to
// the run, and why the run must stop ("" to go on).
func (m *machine) settled(q []command, n int, outcome graph.State, fatal bool, stop string) []command {
	m.walk.Finish(n, outcome)
	m.fatal = m.fatal || fatal
	if m.stop == "" {
		m.stop = stop
	}
	if m.settling--; m.settling > 0 {
		return q
	}
	return m.schedule(q)
}

// assessed is told the pass's convergence, whether the TTL has run out
// and the pass budget its depth now gives; it ends the run or asks for
// refinements.
func (m *machine) assessed(q []command, a assessment) []command {
	if a.maxPasses > 0 {
		m.maxPasses = a.maxPasses
	}
	converged, clean, expired := a.converged, a.clean, a.expired
	t := ""
	switch {
	case m.fatal:
		t = history.Failed
	case m.stop != "":
		t = m.stop
	case converged && clean:
		t = history.Converged
	case converged:
		t = history.Stalled
	case m.pass >= m.maxPasses: // a shallower depth may leave fewer passes than were run
		t = history.MaxPasses
	case expired:
		t = history.TTLExpired
	}
	if t != "" {
		m.end = t
		return append(q, command{op: opFinish})
	}
	return append(q, command{op: opRefine})
}

// refined is told whether a refinement applied (the walk already holds
// what it changed) and, if none did, the termination that says why.
func (m *machine) refined(q []command, applied bool, refusal string) []command {
	if !applied {
		m.end = refusal
		return append(q, command{op: opFinish})
	}
	m.pass++
	return m.schedule(append(q, command{op: opPass, pass: m.pass}))
}
