package runner

import (
	"context"

	"github.com/nous-dev/nous/engine/history"
)

// driver carries out the decision core's commands for one run: every side
// effect of the run happens here or below (the steps' plugin and agent
// calls, the clock, logs, progress, the trace and the history).
type driver struct {
	r    *run
	ctx  context.Context
	p    *history.Pass // the pass under way
	pool Pool          // the workers; made when the first starts
	// checked: the boundary was checked when the last step settled and
	// nothing has run since, so the next check would read the clock for
	// the same answer
	checked bool
}

func (d *driver) pass(n int) {
	d.checked = false
	r := d.r
	r.hist.Passes = append(r.hist.Passes, history.Pass{Number: n, Depth: r.depthName(), StartedAt: r.e.opts.Clock(), Steps: make([]history.StepRun, 0, len(r.steps)), Refinements: []history.Refinement{}})
	d.p = &r.hist.Passes[len(r.hist.Passes)-1]
	r.notify(Event{Kind: "pass", Pass: n})
}

func (d *driver) skip(node, by int) { d.r.skip(d.p, d.r.nodes[node], d.r.nodes[by]) }

func (d *driver) boundary() string {
	if d.checked {
		d.checked = false
		return ""
	}
	return d.r.boundary(d.ctx)
}

func (d *driver) start(node int, inline bool) {
	d.checked = false
	st := d.r.nodes[node]
	d.r.launch(d.p, st)
	if inline {
		d.r.runGuarded(d.ctx, d.p.Number, st)
		return
	}
	if d.pool == nil {
		d.pool = d.r.e.opts.Workers(d.r.loop.Workers) // at most Workers steps run at once
	}
	pass := d.p.Number
	d.pool.Go(d.ctx, func(ctx context.Context) int {
		d.r.runGuarded(ctx, pass, st)
		return node
	})
}

func (d *driver) wait() int {
	d.checked = false
	return d.pool.Next()
}

func (d *driver) settle(node int) outcome {
	o := d.r.settle(d.ctx, d.p, d.r.nodes[node])
	d.checked = o.stop == ""
	return o
}

func (d *driver) assess() assessment {
	p := d.p
	if d.r.plan.Policy.Validator != nil {
		d.r.validatePass(d.ctx, p)
	}
	p.Convergence = d.r.assess()
	a := assessment{converged: p.Convergence.Converged, clean: len(p.Convergence.Failed) == 0, expired: d.r.e.opts.Time.Now().After(d.r.deadline)}
	if !a.converged && !a.expired && d.r.fatal == nil { // the run may go on: is its depth still right?
		a.maxPasses = d.r.reassess(p)
	}
	p.EndedAt = d.r.e.opts.Clock()
	return a
}

func (d *driver) refine() (applied bool, refusal string) {
	applied = d.r.refine(d.p)
	d.r.sync()
	if !applied {
		refusal = d.r.refusedTermination(d.p)
	}
	return applied, refusal
}
