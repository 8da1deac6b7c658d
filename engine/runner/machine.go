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
	opStart            // launch node; inline: run it here and answer with returned, else on a worker
	opWait             // wait for a worker; answer with returned
	opSettle           // validate and record node's result; answer with settled
	opAssess           // assess the pass; answer with assessed
	opRefine           // apply the refinements validation asked for; answer with refined
	opFinish           // finish the run, ended by termination
)

// command is one thing the decision core decided.
type command struct {
	op          op
	node, by    int
	pass        int
	inline      bool   // opStart: nothing to overlap with, so no worker
	termination string // opFinish
}

// machine is a run's decision core: the loop of passes over the plan's
// walk, as a pure state machine. Its driver feeds it events (a worker
// returned, a step settled with an outcome, the deadline passed, a pass
// was assessed, refinements applied) and carries out the commands it
// answers with; every side effect (plugin and agent calls, the clock,
// logs, progress, the trace and the history) is the driver's. The core
// decides the same way for the same events, so a recorded run replays.
type machine struct {
	walk      *graph.Walk // the steps, by node
	workers   int
	maxPasses int

	pass     int
	running  []int  // launched and not settled, in launch order
	back     []bool // by node: its worker returned
	settling int    // settles asked for and not yet answered
	stop     string // termination forced at a boundary (ttl, cancelled)
	fatal    bool   // a step failed in a way no refinement can help
}

func newMachine(walk *graph.Walk, workers, maxPasses int) *machine {
	return &machine{walk: walk, workers: workers, maxPasses: maxPasses}
}

// begin starts the first pass.
func (m *machine) begin() []command {
	m.pass = 1
	return m.schedule([]command{{op: opPass, pass: 1}})
}

// schedule decides what the pass does next: skip what a failure blocks,
// then start what is ready (after a boundary check), else wait for a
// worker, else end the pass.
func (m *machine) schedule(cmds []command) []command {
	for s, ok := m.walk.Skip(); ok; s, ok = m.walk.Skip() {
		cmds = append(cmds, command{op: opSkip, node: s.Node, by: s.By})
	}
	switch {
	case m.stop == "" && !m.fatal && len(m.running) < m.workers && m.walk.Ready():
		return append(cmds, command{op: opCheck})
	case len(m.running) > 0:
		return append(cmds, command{op: opWait})
	}
	return append(cmds, command{op: opAssess})
}

// boundary is the answer to opCheck: why the run must stop, or "".
// Without a reason it starts every ready step the workers allow, in
// node order; a lone step with nothing to overlap runs inline.
func (m *machine) boundary(stop string) []command {
	if stop != "" {
		m.stop = stop
		return m.schedule(nil)
	}
	idle := len(m.running) == 0
	var cmds []command
	for len(m.running) < m.workers {
		n, ok := m.walk.Start()
		if !ok {
			break
		}
		m.running = append(m.running, n)
		for len(m.back) <= n {
			m.back = append(m.back, false)
		}
		m.back[n] = false
		cmds = append(cmds, command{op: opStart, node: n})
	}
	if idle && len(cmds) == 1 {
		cmds[0].inline = true
		return cmds
	}
	return append(cmds, command{op: opWait})
}

// returned is told that node's worker (or inline run) is done. Results
// settle in launch order, so the trace and history do not depend on how
// the workers interleave.
func (m *machine) returned(n int) []command {
	m.back[n] = true
	var cmds []command
	for len(m.running) > 0 && m.back[m.running[0]] {
		cmds = append(cmds, command{op: opSettle, node: m.running[0]})
		m.running = m.running[1:]
	}
	m.settling = len(cmds)
	if len(cmds) == 0 {
		return m.schedule(nil)
	}
	return cmds
}

// settled is told node's outcome after validation, whether it is fatal to
// the run, and why the run must stop ("" to go on).
func (m *machine) settled(n int, outcome graph.State, fatal bool, stop string) []command {
	m.walk.Finish(n, outcome)
	m.fatal = m.fatal || fatal
	if m.stop == "" {
		m.stop = stop
	}
	if m.settling--; m.settling > 0 {
		return nil
	}
	return m.schedule(nil)
}

// assessed is told the pass's convergence and whether the TTL has run
// out; it ends the run or asks for refinements.
func (m *machine) assessed(converged, clean, expired bool) []command {
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
	case m.pass == m.maxPasses:
		t = history.MaxPasses
	case expired:
		t = history.TTLExpired
	}
	if t != "" {
		return []command{{op: opFinish, termination: t}}
	}
	return []command{{op: opRefine}}
}

// refined is told whether a refinement applied (the walk already holds
// what it changed) and, if none did, the termination that says why.
func (m *machine) refined(applied bool, refusal string) []command {
	if !applied {
		return []command{{op: opFinish, termination: refusal}}
	}
	m.pass++
	return m.schedule([]command{{op: opPass, pass: m.pass}})
}
