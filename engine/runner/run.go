package runner

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/trace"
)

// run is the state of one Run.
type run struct {
	e    *Executor
	plan *engine.Plan
	loop engine.Limits // the current depth's budget (the policy's limits without depth levels)
	// depthAt is the current depth's index among the policy's levels, -1
	// when the run has none to re-assess.
	depthAt int
	steps   []*stepState
	byID    map[string]*stepState
	m       *machine     // the decision core
	nodes   []*stepState // by node of m's walk; nil for the node that stands for unknown dependencies
	none    int          // that node, -1 until a dependency names no step
	walked  int          // steps in the walk: r.steps[:walked]

	trace       *trace.Trace
	interaction string // the question's interaction ID
	hist        *history.History
	logs        *history.Dir
	start       time.Time // on the injected clock
	began       time.Time // on the run's Time: the TTL counts from it
	deadline    time.Time // on the run's Time
	seq         atomic.Int64

	params []trace.Param // backing the trace entries' parameters are cut from

	refinedTotal int
	fatal        error // ends the run (no valid sources)
	hasRetrieve  bool

	mu        sync.Mutex // guards the fields below, written by workers
	promptTok int
	complTok  int
	queries   []engine.QueryResult // by retrieval plan: its last execution; nil until one ran
}

func newRun(e *Executor, plan *engine.Plan) *run {
	hyps := plan.Reasoning.Hypotheses
	r := &run{
		e: e, plan: plan,
		steps: make([]*stepState, 0, len(hyps)), byID: make(map[string]*stepState, len(hyps)), start: e.opts.Clock(),
	}
	r.loop, r.depthAt = depthOf(plan)
	// One allocation for the steps, one for their dependency lists and two
	// for their commitments; each list is capped, so a refinement's append
	// copies it out.
	states := make([]stepState, len(hyps))
	ndeps, ncommit := 0, 0
	for _, h := range hyps {
		ndeps += len(h.Dependencies)
		ncommit += len(commitPrefix) + len(h.ID)
	}
	deps := make([]string, 0, ndeps)
	commits := commitments(hyps, ncommit)
	for i, h := range hyps {
		deps = append(deps, h.Dependencies...)
		st := &states[i] // set field by field: the zeroed state is large
		st.id, st.hyp, st.status = h.ID, &hyps[i], engine.StatusPending
		st.deps = deps[len(deps)-len(h.Dependencies) : len(deps) : len(deps)]
		st.step = &noStep
		st.commit = commits[i : i+1 : i+1]
		if i < len(plan.Steps) && plan.Steps[i].ID == h.ID {
			st.step = &plan.Steps[i]
			st.plans = append([]int(nil), plan.Steps[i].Plans...)
		}
		if st.action() == "retrieve" {
			r.hasRetrieve = true
		}
		r.steps = append(r.steps, st)
		r.byID[h.ID] = st
	}
	r.m = newMachine(graph.NewWalk(len(hyps)), r.loop.Workers, r.loop.MaxPasses, r.light)
	r.m.inOrder = r.e.opts.SettleInLaunchOrder
	r.nodes = make([]*stepState, 0, len(hyps))
	r.none = -1
	r.sync()
	r.params = make([]trace.Param, 0, 2*len(hyps)+3) // the plan's 3, a launch's 2
	id := e.opts.ExecutionID
	if id == "" {
		id = history.NewID(r.start)
	}
	r.interaction = cmp.Or(e.opts.InteractionID, id)
	topts := []trace.Option{trace.Interaction(r.interaction)}
	if plan.Policy.TraceOff {
		topts = append(topts, trace.Disabled())
	}
	r.trace = trace.New(e.opts.Clock, topts...)
	r.trace.Grow(len(hyps) + 2) // the plan, a launch per step, the end
	r.hist = &history.History{
		ExecutionID: id, TaskInput: plan.Query, StartedAt: r.start, Passes: []history.Pass{}, PlanValidation: plan.Validation,
		Configuration: history.Configuration{
			Mode: plan.Mode, MaxPasses: r.loop.MaxPasses, TTL: r.loop.TTL.String(),
			RefinePerStep: r.loop.RefinePerStep, RefineTotal: r.loop.RefineTotal, Workers: r.loop.Workers, MaxRecords: r.loop.MaxRecords,
			Profile: plan.Profile,
		},
	}
	return r
}

// commitments are the hypotheses' trace commitments, "step:ID", cut from
// one string of n bytes.
func commitments(hyps []engine.Hypothesis, n int) []string {
	var b strings.Builder
	b.Grow(n)
	for _, h := range hyps {
		b.WriteString(commitPrefix)
		b.WriteString(h.ID)
	}
	all, out, at := b.String(), make([]string, len(hyps)), 0
	for i, h := range hyps {
		end := at + len(commitPrefix) + len(h.ID)
		out[i], at = all[at:end], end
	}
	return out
}

// param returns ps in room cut from the run's backing, so the trace's
// parameters cost an allocation per run, not one per entry. Only the
// coordinator records in the trace.
func (r *run) param(ps ...trace.Param) trace.Params {
	if cap(r.params)-len(r.params) < len(ps) {
		r.params = make([]trace.Param, 0, max(2*cap(r.params), len(ps)))
	}
	n := len(r.params)
	r.params = append(r.params, ps...)
	return r.params[n:len(r.params):len(r.params)] // capped: an append copies it out
}

// execute runs the loop of passes (the decision core, driven through a
// driver that does its side effects) and then the finalization.
func (r *run) execute(ctx context.Context) (*Result, error) {
	r.began = r.e.opts.Time.Now()
	r.deadline = r.began.Add(r.loop.TTL)
	if r.e.opts.LogDir != "" {
		r.openLogs()
	}
	r.profiled()
	r.planned()
	r.tracePlanValidation()
	r.hist.Termination = r.m.drive(&driver{r: r, ctx: ctx})
	return r.finish(ctx)
}

// sync brings the walk up to date with the steps: steps added, the
// dependencies they gained and the statuses refinement gave them. Steps
// and dependencies are only ever added, never removed.
func (r *run) sync() {
	w := r.m.walk
	for _, st := range r.steps[r.walked:] {
		st.node = w.Add()
		r.nodes = append(r.nodes, st)
	}
	r.walked = len(r.steps)
	for _, st := range r.steps {
		for _, d := range st.deps[len(w.Upstreams(st.node)):] { // one upstream per dependency
			w.Depend(st.node, r.nodeOf(d))
		}
		if want := walkState(st); w.State(st.node) != want {
			if want == graph.Pending {
				w.Reset(st.node)
			} else {
				w.Finish(st.node, want)
			}
		}
	}
}

// light reports whether the step at node calls no plugin or agent, so
// running it on a worker would only add a goroutine hand-off.
func (r *run) light(node int) bool {
	a := r.nodes[node].action()
	return a != "retrieve" && a != "agent"
}

// nodeOf is the node of the step with the given ID. An ID that names no
// step counts as a dependency that is done.
func (r *run) nodeOf(id string) int {
	if dep := r.byID[id]; dep != nil {
		return dep.node
	}
	if r.none < 0 {
		r.none = r.m.walk.Add()
		r.m.walk.Finish(r.none, graph.Done)
		r.nodes = append(r.nodes, nil)
	}
	return r.none
}

// walkState is where a step with st's status stands in the walk.
func walkState(st *stepState) graph.State {
	switch st.status {
	case engine.StatusCompleted, engine.StatusRemoved:
		return graph.Done
	case engine.StatusFailed:
		if tolerable(st) {
			return graph.Tolerated
		}
		return graph.Failed
	case engine.StatusInvalid:
		return graph.Held
	case engine.StatusSkipped:
		return graph.Skipped
	case engine.StatusRunning:
		return graph.Running
	}
	return graph.Pending
}

// openLogs creates the run's own log directory. A name another run took
// first is replaced by a fresh one (an id the caller chose is kept, and
// its logs disabled), so a run never writes into another run's directory.
func (r *run) openLogs() {
	var (
		d   *history.Dir
		err error
	)
	if r.e.opts.ExecutionID != "" {
		d, err = history.NewDir(r.e.opts.LogDir, r.hist.ExecutionID, r.e.opts.Redactor)
	} else {
		first := true
		d, err = history.Create(r.e.opts.LogDir, func() string {
			if first {
				first = false
				return r.hist.ExecutionID
			}
			return history.NewID(r.start)
		}, r.e.opts.Redactor)
	}
	if err != nil {
		r.e.opts.Logger.Warn("iteration logs disabled", "err", err)
		return
	}
	r.logs, r.hist.ExecutionID = d, d.ExecutionID()
}

func (r *run) refusedTermination(p *history.Pass) string {
	for _, ref := range p.Refinements {
		if !ref.Applied {
			return history.RefineLimit
		}
	}
	return history.Stalled
}

// planned records the plan in the trace with a commitment per step.
func (r *run) planned() {
	commit := make([]string, 0, len(r.steps)+1)
	hasWriter := false
	for _, st := range r.steps {
		commit = append(commit, st.commitment())
		hasWriter = hasWriter || st.role() == "writer"
	}
	if hasWriter {
		commit = append(commit, "report")
	}
	r.trace.Add(trace.Entry{
		Stage: trace.Planning, Thought: "Execute " + strconv.Itoa(len(r.steps)) + " step(s) in " + r.plan.Mode + " mode",
		Action: "plan", Parameters: r.param(trace.Param{Key: "max_passes", Value: r.loop.MaxPasses}, trace.Param{Key: "ttl", Value: r.hist.Configuration.TTL}, trace.Param{Key: "workers", Value: r.loop.Workers}),
		Evidence: []string{strconv.Itoa(len(r.plan.Retrieval.Plans)) + " retrieval plan(s)"}, Commitments: commit, Outcome: trace.Success,
	})
}

// boundary checks cancellation and the TTL at a safe point.
func (r *run) boundary(ctx context.Context) string {
	if ctx.Err() != nil {
		return history.Cancelled
	}
	if !r.e.opts.Time.Now().Before(r.deadline) {
		return history.TTLExpired
	}
	return ""
}

// runGuarded runs st, turning a panic (a bug) into a failed step.
func (r *run) runGuarded(ctx context.Context, pass int, st *stepState) {
	defer func() {
		if v := recover(); v != nil {
			st.resStatus, st.resErr = engine.StatusFailed, panicError(st, v)
		}
	}()
	r.runStep(ctx, pass, st)
}

// panicError is the error of a step whose run panicked with v.
func panicError(st *stepState, v any) error {
	return fmt.Errorf("step %s panicked: %v", st.id, v)
}

// tolerable reports whether a failed dependency need not block its
// dependents while another of their dependencies answers: a retrieval
// whose sources failed. Strict mode's "no valid sources" ends the run.
func tolerable(dep *stepState) bool {
	return dep.status == engine.StatusFailed && dep.action() == "retrieve" && !IsNoValidSources(dep.err)
}

// skip records st as skipped because its dependency dep failed or was
// skipped.
func (r *run) skip(p *history.Pass, st, dep *stepState) {
	st.status = engine.StatusSkipped
	st.err = fmt.Errorf("dependency %s %s", dep.id, dep.status)
	r.trace.Add(trace.Entry{Stage: trace.Execution, Thought: st.hyp.Description, Action: st.action(),
		Parameters: r.param(trace.Param{Key: "step", Value: st.id}), Outcome: trace.Skipped, Error: st.err.Error()})
	p.Steps = append(p.Steps, history.StepRun{ID: st.id, Intent: st.hyp.Intent, Name: st.hyp.Name,
		Action: st.action(), Role: st.role(), Status: engine.StatusSkipped, Error: st.err.Error(), Attempt: st.attempts,
		StartedAt: r.e.opts.Clock(), EndedAt: r.e.opts.Clock()})
	r.notify(Event{Kind: "end", Pass: p.Number, Step: st.id, Description: st.hyp.Description, Status: string(engine.StatusSkipped), Detail: st.err.Error()})
}

// launch marks st running and records its start.
func (r *run) launch(p *history.Pass, st *stepState) {
	st.status = engine.StatusRunning
	st.err, st.resErr = nil, nil
	st.out = output{}
	st.resStatus = ""
	r.startRun(st)
	params := r.param(trace.Param{Key: "step", Value: st.id}, trace.Param{Key: "pass", Value: p.Number})
	if st.attempts > 0 {
		params = append(params, trace.Param{Key: "attempt", Value: st.attempts})
	}
	st.entry = r.trace.Add(trace.Entry{Stage: trace.Execution, Thought: st.hyp.Description, Action: actionLabel(st),
		Parameters: params, Fulfills: st.fulfills()})
	if st.role() != "" { // only prompts read the summaries
		st.traceSummary, st.corrections = r.trace.Summary(10, false), r.trace.Summary(10, true)
	}
	r.notify(Event{Kind: "start", Pass: p.Number, Step: st.id, Description: st.hyp.Description})
}

func actionLabel(st *stepState) string {
	if role := st.role(); role != "" {
		return "agent:" + role
	}
	if a := st.action(); a != "" {
		return a
	}
	return "noop"
}

// settle records a finished step, validates it, checks the TTL and
// returns what the decision core needs to know of it.
func (r *run) settle(ctx context.Context, p *history.Pass, st *stepState) outcome {
	st.status, st.err = st.resStatus, st.resErr
	r.endRun(st)
	if st.err != nil {
		st.err = r.redactErr(st.err)
	}
	if st.status == engine.StatusCompleted || st.status == engine.StatusInvalid {
		r.validate(p, st)
	}
	fatal := st.status == engine.StatusFailed && IsNoValidSources(st.err)
	if fatal {
		r.fatal = st.err // strict mode with nothing left: no refinement can help
	}
	r.recordStep(p, st)
	if log := r.e.opts.Logger; log.Enabled(ctx, slog.LevelDebug) {
		log.Debug("step finished", "pass", p.Number, "step", st.id, "status", st.status, "records", len(st.out.Records), "error", errText(st.err))
	}
	return outcome{state: walkState(st), fatal: fatal, stop: r.boundary(ctx)}
}

// startRun stamps the start of st's current run.
func (r *run) startRun(st *stepState) {
	st.started, st.startSeq = r.e.opts.Clock(), int(r.seq.Add(1))
}

// endRun stamps the end of st's current run.
func (r *run) endRun(st *stepState) {
	st.ended, st.endSeq = r.e.opts.Clock(), int(r.seq.Add(1))
}

func (r *run) notify(ev Event) {
	if r.e.opts.Progress != nil {
		r.e.opts.Progress(ev)
	}
}
