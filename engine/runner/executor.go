// Package exec runs a plan: ready steps of the hypothesis DAG in parallel
// (bounded), each step's action (retrieve through Sources, a built-in
// transform, or an agent role through Agents), then validation (check rules
// and the critic), a convergence assessment, and refinement deltas on the
// steps that need them, pass after pass until the plan converges or runs
// out of passes or time.
package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
)

// Executor runs plans against sources and agents. It holds no per-run
// state and is safe for concurrent use.
type Executor struct {
	sources engine.Sources
	agents  engine.Agents
	opts    Options
}

// Options tune an Executor. The zero value is usable.
type Options struct {
	// Clock stamps the trace, history and date resolution; time.Now when
	// nil. A fixed clock makes the output byte-identical run to run. The
	// TTL is measured on Time.
	Clock func() time.Time
	// Time measures the TTL and bounds each plugin and agent call: the real
	// clock when nil.
	Time Time
	// Workers makes the pool that runs up to size steps at once:
	// goroutines when nil.
	Workers func(size int) Pool
	// Logger receives the engine's own logs; nothing is logged when nil.
	Logger *slog.Logger
	// Redactor hides secrets in errors, the trace, the history and logs.
	Redactor *redact.Redactor
	// LogDir, when set, receives per-run JSON logs (see history.Dir).
	LogDir string
	// Progress is told about passes, steps and refinements as they happen,
	// always from one goroutine.
	Progress func(Event)
	// ExecutionID names the run; when empty, history.NewID makes a fresh
	// one (start time and a random part) for every run.
	ExecutionID string
	// InteractionID names the interaction (one question) the run answers,
	// on every trace entry and the result; the execution ID when empty.
	InteractionID string
	// Conversation is the question's earlier turns in its session, oldest
	// first and bounded by the caller; the analyst, critic and writer get it.
	Conversation []sdk.Turn
	// WithStats asks the sources that apply the with_stats filter for the
	// records' line statistics (files, additions, deletions, paths): set
	// when the output shows record fields (JSON). Without it each source's
	// own configuration decides.
	WithStats bool
	// SettleInLaunchOrder settles a step that ran inline only after the
	// worker steps launched before it, as every run did before inline
	// steps settled at once. A durable run replaying a history recorded
	// then sets it (its calls came in that order); nothing else should.
	SettleInLaunchOrder bool
}

// Event is a progress notification.
type Event struct {
	Kind        string // pass | start | end | refine | depth | done
	Pass        int
	Step        string
	Description string
	Status      string
	Detail      string
}

// New returns an executor that fetches through sources and invokes agents.
func New(sources engine.Sources, agents engine.Agents, opts Options) *Executor {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Time == nil {
		opts.Time = realTime{}
	}
	if opts.Workers == nil {
		opts.Workers = newGoPool
	}
	return &Executor{sources: sources, agents: agents, opts: opts}
}

// Run executes plan and returns its result. The result is never nil: on
// cancellation, time-out or a fatal error it carries the partial history
// and trace, and err says what ended the run.
func (e *Executor) Run(ctx context.Context, plan *engine.Plan) (*Result, error) {
	if err := runnable(plan); err != nil {
		res := &Result{Status: ResultFailed, Error: err.Error(), Plan: plan, Steps: []StepResult{}, Records: []sdk.Record{}}
		if plan != nil {
			res.Query, res.Mode = plan.Query, plan.Mode
		}
		return res, err
	}
	r := newRun(e, plan)
	return r.execute(ctx)
}

// runnable says why plan cannot run, or nil.
func runnable(plan *engine.Plan) error {
	switch {
	case plan == nil:
		return errors.New("runner: no plan to run")
	case plan.Policy == nil:
		return errors.New("runner: the plan has no policy; plans come from engine.Planner")
	}
	if l := plan.Policy.Limits; l.MaxPasses <= 0 || l.TTL <= 0 || l.Workers <= 0 || l.MaxRecords <= 0 {
		return fmt.Errorf("runner: the plan's policy leaves a loop limit unset (max passes %d, ttl %s, workers %d, max records %d; each must be positive)",
			l.MaxPasses, l.TTL, l.Workers, l.MaxRecords)
	}
	return nil
}
