// Package ask answers a question: it plans it, grounds its terms against
// the plan's sources, runs the plan through sources and agents and composes
// the report. `nous ask` and `nous serve` call it.
package ask

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/session"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// groundTimeout bounds asking the sources about the question's terms; a
// source that does not answer in time is noted and its terms kept as written.
const groundTimeout = 20 * time.Second

// Plugins are what an answer calls out to: sources that fetch records,
// ground terms and say what they serve, and agents.
type Plugins interface {
	engine.Sources
	engine.Grounding
	engine.Describer
	engine.Agents
}

// Deps are what answering takes from outside but the plugins: the rules
// and the run's clock, redaction, logs and progress.
type Deps struct {
	Rules *rules.Ruleset
	// Planner is Rules' planner, for a caller that answers many questions
	// with one ruleset (a planner compiles the rules' templates once);
	// New compiles one when nil.
	Planner  *engine.Planner
	Clock    func() time.Time // time.Now when nil
	Redactor *redact.Redactor // masks secrets in errors, logs and the result
	Logger   *slog.Logger     // the engine's logs; none when nil
	Progress func(runner.Event)
	Warnings io.Writer // one line per agent that falls back; io.Discard when nil
	LogDir   string    // per-run JSON logs (see history.Dir); none when empty
	// WithStats asks the sources for the records' line statistics, for
	// output that shows record fields (see runner.Options.WithStats).
	WithStats bool
	// Time and Workers are the run's time and step workers (see
	// runner.Options); the real clock and goroutines when nil.
	Time    runner.Time
	Workers func(size int) runner.Pool
	// SettleInLaunchOrder is runner.Options.SettleInLaunchOrder.
	SettleInLaunchOrder bool
}

// Request is one question.
type Request struct {
	Query string
	Mode  string // a tier mode; empty lets the mode rules choose
	// Session, when set, is the conversation the question continues: a
	// follow-up takes what the rules' session block inherits from its last
	// turn, and the agents see its last turns. The caller stores the new
	// turn (see Turn).
	Session *session.Session
	// ID names the run (its execution ID), for a caller that refers to it
	// before it ends; a fresh one when empty.
	ID string
}

// Service answers questions with one ruleset.
type Service struct {
	deps    Deps
	planner *engine.Planner
}

// New returns a service that answers with deps.
func New(deps Deps) *Service {
	if deps.Clock == nil {
		deps.Clock = time.Now
	}
	if deps.Warnings == nil {
		deps.Warnings = io.Discard
	}
	if deps.Time == nil {
		deps.Time = runner.RealTime()
	}
	planner := deps.Planner
	if planner == nil {
		planner = engine.NewPlanner(deps.Rules)
	}
	return &Service{deps: deps, planner: planner}
}

// PlanError is a question the rules cannot plan: planning failed (Err), or
// the plan has error diagnostics. Nothing was asked of any plugin.
type PlanError struct {
	Err         error
	Diagnostics []engine.Diagnostic // the plan's errors, when Err is nil
}

func (e *PlanError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("plan: %s: %s", e.Diagnostics[0].Code, e.Diagnostics[0].Message)
}

func (e *PlanError) Unwrap() error { return e.Err }

// CheckMode reports whether the rules define mode ("" always passes), so a
// caller can refuse a bad mode before it starts any plugin.
func (s *Service) CheckMode(mode string) error { return s.planner.CheckMode(mode) }

// Answer plans req, grounds it against p's sources, validates it against
// what they serve (refining it before the first pass), runs the plan
// through p and composes the report. A question with a blocking ambiguity
// is asked back instead (status needs_clarification, see
// runner.Executor.Clarify). A question that cannot be planned is a *PlanError
// and a nil result; a run that ended in error returns its result and the
// error, masked.
func (s *Service) Answer(ctx context.Context, p Plugins, req Request) (*runner.Result, error) {
	d := s.deps
	// Planning asks no plugin and is quick: a question cancelled before it
	// ran (one taken out of nous serve's queue) is still planned, and ends
	// as cancelled on its plan, as one cancelled later does.
	pctx := context.WithoutCancel(ctx)
	ereq, err := session.Request(pctx, s.planner, req.Session, req.Query, req.Mode)
	if err != nil {
		return nil, &PlanError{Err: err}
	}
	// Rule problems are reported before any plugin is asked anything.
	plan, err := s.planner.Plan(pctx, ereq)
	if err != nil {
		return nil, &PlanError{Err: err}
	}
	if errs := plan.Errors(); len(errs) > 0 {
		return nil, &PlanError{Diagnostics: errs}
	}
	if st, ok := p.(engine.Starter); ok {
		// The plugins start while the question is grounded.
		sources, agents := needs(plan)
		st.Prestart(ctx, sources, agents)
	}
	// An ambiguous question is asked back as soon as it is found so: one
	// the rules find ambiguous is not grounded, one grounding finds
	// ambiguous is not validated. Neither would settle it.
	if plan.Blocking() == nil {
		gctx, cancel := d.Time.WithDeadline(ctx, d.Time.Now().Add(groundTimeout))
		grounded, err := s.planner.Interpret(gctx, ereq, p, d.Clock())
		cancel()
		switch {
		case ctx.Err() != nil:
			// Cancelled while grounding: what the sources failed to say is
			// the cancellation's; the run ends at once, as cancelled, on
			// the plan as planned.
		case err != nil:
			return nil, fmt.Errorf("interpreting the question: %w", d.Redactor.Error(err))
		default:
			plan = grounded
		}
	}
	if plan.Blocking() == nil && ctx.Err() == nil {
		dctx, cancel := d.Time.WithDeadline(ctx, d.Time.Now().Add(groundTimeout))
		facts := engine.DescribeSources(dctx, p, plan, engine.SourceFactsFromRules(d.Rules))
		cancel()
		if ctx.Err() == nil { // a cancelled description says nothing of the sources
			engine.ValidatePlan(plan, facts)
		}
	}
	agents := newFallbackAgents(p, d.Rules, d.Warnings)
	opts := runner.Options{Clock: d.Clock, Redactor: d.Redactor, LogDir: d.LogDir, Logger: d.Logger, Progress: d.Progress, ExecutionID: req.ID,
		Conversation: req.Session.Conversation(d.Rules.Session.ContextTurns), WithStats: d.WithStats,
		Time: d.Time, Workers: d.Workers, SettleInLaunchOrder: d.SettleInLaunchOrder}
	exec := runner.New(p, agents, opts)
	var res *runner.Result
	if amb := plan.Blocking(); amb != nil {
		// An ambiguous question is asked back; nothing else runs.
		res, err = exec.Clarify(ctx, plan, *amb)
	} else {
		res, err = exec.Run(ctx, plan)
	}
	if req.Session != nil {
		res.Session = req.Session.ID
	}
	res.Caveats = append(res.Caveats, agents.caveats()...)
	res.Report = runner.Compose(res) // the report opens with every caveat
	return res, d.Redactor.Error(err)
}
