package runner

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"text/template"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/rules"
)

// run is the state of one Run.
type run struct {
	e     *Executor
	plan  *engine.Plan
	rs    *rules.Ruleset
	mode  *rules.Mode
	loop  rules.Loop
	steps []*stepState
	byID  map[string]*stepState

	trace    *trace.Trace
	hist     *history.History
	logs     *history.Dir
	start    time.Time // on the injected clock
	deadline time.Time // on the real clock
	seq      atomic.Int64

	refinedTotal int
	stop         string // termination forced at a boundary (ttl, cancelled)
	fatal        error  // ends the run (no valid sources)
	hasRetrieve  bool

	mu          sync.Mutex // guards the fields below, written by workers
	promptTok   int
	complTok    int
	templates   map[string]*template.Template
	templateErr map[string]error
}

func newRun(e *Executor, plan *engine.Plan) *run {
	rs := plan.Rules
	if rs == nil {
		rs = &rules.Ruleset{}
	}
	r := &run{
		e: e, plan: plan, rs: rs, mode: rs.Mode(plan.Mode), loop: loopLimits(rs.Loop),
		byID: map[string]*stepState{}, trace: trace.New(e.opts.Clock), start: e.opts.Clock(),
		templates: map[string]*template.Template{}, templateErr: map[string]error{},
	}
	for i, h := range plan.Reasoning.Hypotheses {
		st := &stepState{id: h.ID, hyp: h, deps: append([]string(nil), h.Dependencies...), status: StatusPending}
		if i < len(plan.Steps) && plan.Steps[i].ID == h.ID {
			st.tmpl = plan.Steps[i]
			st.plans = append([]int(nil), plan.Steps[i].Plans...)
		}
		if st.action() == "retrieve" {
			r.hasRetrieve = true
		}
		r.steps = append(r.steps, st)
		r.byID[h.ID] = st
	}
	id := e.opts.ExecutionID
	if id == "" {
		id = history.NewID(r.start)
	}
	r.hist = &history.History{
		ExecutionID: id, TaskInput: plan.Query, StartedAt: r.start, Passes: []history.Pass{},
		Configuration: history.Configuration{
			Mode: plan.Mode, MaxPasses: r.loop.MaxPasses, TTL: r.loop.TTL.String(),
			RefinePerStep: r.loop.RefinePerStep, RefineTotal: r.loop.RefineTotal, Workers: r.loop.Workers, MaxRecords: r.loop.MaxRecords,
		},
	}
	return r
}

func (r *run) execute(ctx context.Context) (*Result, error) {
	r.deadline = time.Now().Add(r.loop.TTL)
	if r.e.opts.LogDir != "" {
		r.openLogs()
	}
	r.planned()
	for pass := 1; pass <= r.loop.MaxPasses; pass++ {
		r.hist.Passes = append(r.hist.Passes, history.Pass{Number: pass, StartedAt: r.e.opts.Clock(), Steps: []history.StepRun{}, Refinements: []history.Refinement{}})
		p := &r.hist.Passes[len(r.hist.Passes)-1]
		r.notify(Event{Kind: "pass", Pass: pass})
		r.executePass(ctx, p)
		p.Convergence = r.assess()
		p.EndedAt = r.e.opts.Clock()
		if t := r.termination(p, pass); t != "" {
			r.hist.Termination = t
			break
		}
		if !r.refine(p) {
			r.hist.Termination = r.refusedTermination(p)
			break
		}
	}
	return r.finish(ctx)
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

// termination decides, after a pass, whether the loop stops and why.
func (r *run) termination(p *history.Pass, pass int) string {
	switch {
	case r.fatal != nil:
		return history.Failed
	case r.stop != "":
		return r.stop
	case p.Convergence.Converged && len(p.Convergence.Failed) == 0:
		return history.Converged
	case p.Convergence.Converged:
		return history.Stalled
	case pass == r.loop.MaxPasses:
		return history.MaxPasses
	case time.Now().After(r.deadline):
		return history.TTLExpired
	}
	return ""
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
		commit = append(commit, "step:"+st.id)
		hasWriter = hasWriter || st.role() == "writer"
	}
	if hasWriter {
		commit = append(commit, "report")
	}
	r.trace.Add(trace.Entry{
		Stage: trace.Planning, Thought: fmt.Sprintf("Execute %d step(s) in %s mode", len(r.steps), r.plan.Mode),
		Action: "plan", Parameters: map[string]any{"max_passes": r.loop.MaxPasses, "ttl": r.loop.TTL.String(), "workers": r.loop.Workers},
		Evidence: []string{fmt.Sprintf("%d retrieval plan(s)", len(r.plan.Retrieval.Plans))}, Commitments: commit, Outcome: trace.Success,
	})
}

// boundary checks cancellation and the TTL at a safe point.
func (r *run) boundary(ctx context.Context) string {
	if ctx.Err() != nil {
		return history.Cancelled
	}
	if !time.Now().Before(r.deadline) {
		return history.TTLExpired
	}
	return ""
}

// executePass runs every step that can run, independent ones in parallel.
// Results are taken in launch order, so the trace, the history and the
// validation report come out the same however the workers interleave.
func (r *run) executePass(ctx context.Context, p *history.Pass) {
	done := make(chan *stepState, len(r.steps))
	var running, batch []*stepState
	for {
		r.skipBlocked(p)
		batch = batch[:0]
		for _, st := range r.steps {
			if r.stop != "" || r.fatal != nil || len(running)+len(batch) >= r.loop.Workers {
				break
			}
			if st.status != StatusPending || !r.ready(st) {
				continue
			}
			if r.stop = r.boundary(ctx); r.stop != "" {
				break
			}
			batch = append(batch, st)
		}
		if len(batch) == 1 && len(running) == 0 {
			// Nothing to overlap with: run on this goroutine, which
			// saves a goroutine hand-off per step of a chain.
			r.launch(p, batch[0])
			r.runGuarded(ctx, p.Number, batch[0])
			r.settle(ctx, p, batch[0])
			continue
		}
		for _, st := range batch {
			r.launch(p, st)
			go func() {
				r.runGuarded(ctx, p.Number, st)
				done <- st
			}()
			running = append(running, st)
		}
		if len(running) == 0 {
			return
		}
		st := <-done
		st.settled = true
		for len(running) > 0 && running[0].settled {
			r.settle(ctx, p, running[0])
			running = running[1:]
		}
	}
}

// runGuarded runs st, turning a panic (a bug) into a failed step.
func (r *run) runGuarded(ctx context.Context, pass int, st *stepState) {
	defer func() {
		if v := recover(); v != nil {
			st.resStatus, st.resErr = StatusFailed, panicError(st, v)
		}
	}()
	r.runStep(ctx, pass, st)
}

// panicError is the error of a step whose run panicked with v.
func panicError(st *stepState, v any) error {
	return fmt.Errorf("step %s panicked: %v", st.id, v)
}

// ready reports whether every dependency of st is satisfied: done, or a
// retrieval that failed beside one that is done (the step goes on with
// the sources that answered; the run's caveats name the one that failed).
func (r *run) ready(st *stepState) bool {
	done := len(st.deps) == 0
	for _, d := range st.deps {
		dep := r.byID[d]
		switch {
		case dep == nil || dep.status == StatusCompleted || dep.status == StatusRemoved:
			done = true
		case !tolerable(dep):
			return false
		}
	}
	return done
}

// tolerable reports whether a failed dependency need not block its
// dependents while another of their dependencies answers: a retrieval
// whose sources failed. Strict mode's "no valid sources" ends the run.
func tolerable(dep *stepState) bool {
	return dep.status == StatusFailed && dep.action() == "retrieve" && !IsNoValidSources(dep.err)
}

// skipBlocked skips pending steps whose dependencies failed or were skipped.
func (r *run) skipBlocked(p *history.Pass) {
	for changed := true; changed; {
		changed = false
		for _, st := range r.steps {
			if st.status != StatusPending {
				continue
			}
			dep := r.brokenDep(st)
			if dep == nil {
				continue
			}
			st.status = StatusSkipped
			st.err = fmt.Errorf("dependency %s %s", dep.id, dep.status)
			r.trace.Add(trace.Entry{Stage: trace.Execution, Thought: st.hyp.Description, Action: st.action(),
				Parameters: map[string]any{"step": st.id}, Outcome: trace.Skipped, Error: st.err.Error()})
			p.Steps = append(p.Steps, history.StepRun{ID: st.id, Intent: st.hyp.Intent, Name: st.hyp.Name,
				Action: st.action(), Role: st.role(), Status: StatusSkipped, Error: st.err.Error(), Attempt: st.attempts,
				StartedAt: r.e.opts.Clock(), EndedAt: r.e.opts.Clock()})
			r.notify(Event{Kind: "end", Pass: p.Number, Step: st.id, Description: st.hyp.Description, Status: StatusSkipped, Detail: st.err.Error()})
			changed = true
		}
	}
}

// brokenDep returns the first dependency of st that failed or was
// skipped, unless it is a tolerable failure and another dependency has
// answered or may still answer.
func (r *run) brokenDep(st *stepState) *stepState {
	var failed *stepState
	alive := false
	for _, d := range st.deps {
		dep := r.byID[d]
		switch {
		case dep == nil:
			alive = true
		case dep.status == StatusSkipped || dep.status == StatusFailed && !tolerable(dep):
			return dep
		case dep.status == StatusFailed:
			if failed == nil {
				failed = dep
			}
		default:
			alive = true
		}
	}
	if !alive {
		return failed
	}
	return nil
}

// launch marks st running and records its start.
func (r *run) launch(p *history.Pass, st *stepState) {
	st.status = StatusRunning
	st.settled = false
	st.err, st.resErr = nil, nil
	st.out, st.resOut = output{}, output{}
	st.resStatus = ""
	now := r.e.opts.Clock()
	st.run = history.StepRun{ID: st.id, Intent: st.hyp.Intent, Name: st.hyp.Name, Action: st.action(), Role: st.role(),
		Attempt: st.attempts, StartedAt: now, StartSeq: int(r.seq.Add(1))}
	params := map[string]any{"step": st.id, "pass": p.Number}
	if st.attempts > 0 {
		params["attempt"] = st.attempts
	}
	st.entry = r.trace.Add(trace.Entry{Stage: trace.Execution, Thought: st.hyp.Description, Action: actionLabel(st),
		Parameters: params, Fulfills: []string{"step:" + st.id}})
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

// settle records a finished step, validates it and checks the TTL.
func (r *run) settle(ctx context.Context, p *history.Pass, st *stepState) {
	st.out, st.status, st.err = st.resOut, st.resStatus, st.resErr
	r.endRun(st)
	if st.err != nil {
		st.err = r.redactErr(st.err)
	}
	if st.status == StatusCompleted || st.status == StatusInvalid {
		r.validate(p, st)
	}
	if st.status == StatusFailed && IsNoValidSources(st.err) {
		r.fatal = st.err // strict mode with nothing left: no refinement can help
	}
	r.recordStep(p, st)
	if log := r.e.opts.Logger; log.Enabled(ctx, slog.LevelDebug) {
		log.Debug("step finished", "pass", p.Number, "step", st.id, "status", st.status, "records", len(st.out.Records), "error", st.run.Error)
	}
	if st.status == StatusFailed && ctx.Err() != nil {
		r.stop = history.Cancelled
	}
	if r.stop == "" {
		r.stop = r.boundary(ctx)
	}
}

// endRun stamps the end of st's current run and its duration.
func (r *run) endRun(st *stepState) {
	st.run.EndedAt = r.e.opts.Clock()
	st.run.EndSeq = int(r.seq.Add(1))
	st.run.DurationMS = st.run.EndedAt.Sub(st.run.StartedAt).Milliseconds()
}

func (r *run) notify(ev Event) {
	if r.e.opts.Progress != nil {
		r.e.opts.Progress(ev)
	}
}
