package durable

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/session"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
)

// WorkflowName is the name runs are started under.
const WorkflowName = "nous.Answer"

// queryProgress is the query that reads a run's progress events.
const queryProgress = "progress"

// Input is one question to answer durably.
type Input struct {
	Query string `json:"query"`
	Mode  string `json:"mode,omitempty"`
	// ID names the run (its execution ID) and the workflow.
	ID string `json:"id"`
	// Rules is the digest of the rules the question was asked with; a
	// worker with other rules refuses the run rather than answer it
	// differently.
	Rules string `json:"rules"`
	// Formats are the report formats to render (report.Formats): what
	// the caller prints and, for nous serve, the JSON it stores.
	Formats   []string         `json:"formats"`
	Trace     bool             `json:"trace,omitempty"`
	WithStats bool             `json:"with_stats,omitempty"`
	Session   *session.Session `json:"session,omitempty"`
	// Now fixes the run's clock (tests, NOUS_NOW); the workflow's own
	// deterministic clock when zero.
	Now time.Time `json:"now,omitzero"`
}

// Output is a finished run: its report rendered as asked, and what the
// caller needs to exit and to store the session's turn.
type Output struct {
	Status      string   `json:"status"`
	Termination string   `json:"termination,omitempty"`
	Report      string   `json:"report,omitempty"` // the report's text, secrets masked
	Caveats     []string `json:"caveats,omitempty"`
	// Error is what ended the run in error, masked. When the question
	// could not be planned nothing ran: PlanError says why planning
	// failed, or PlanDiagnostics are the plan's errors.
	Error           string            `json:"error,omitempty"`
	PlanError       string            `json:"plan_error,omitempty"`
	PlanDiagnostics []PlanDiagnostic  `json:"plan_diagnostics,omitempty"`
	Reports         map[string][]byte `json:"reports,omitempty"` // by format
	// Oversize says the reports did not fit in a Temporal payload and
	// were left out: replaying the run's history renders them (Replay).
	Oversize bool          `json:"oversize,omitempty"`
	Turn     *session.Turn `json:"turn,omitempty"`
}

// PlanDiagnostic is an error of a plan the rules cannot run.
type PlanDiagnostic struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Workflow answers questions with one ruleset as Temporal workflow code.
type Workflow struct {
	rules    *rules.Ruleset
	planner  *engine.Planner
	digest   string
	redactor *redact.Redactor
	// done, when set, is given each finished result (nous replay renders
	// it); it must not affect the workflow.
	done func(*runner.Result)
}

// inlineStepsSettleAtOnce is the change ID (workflow.GetVersion) of
// runner.Options.SettleInLaunchOrder: version 1 settles a step that ran
// inline at once, not behind older worker steps.
const inlineStepsSettleAtOnce = "inline-steps-settle-at-once"

// NewWorkflow returns the workflow for rs; red masks secrets in what it
// returns.
func NewWorkflow(rs *rules.Ruleset, red *redact.Redactor) *Workflow {
	return &Workflow{rules: rs, planner: engine.NewPlanner(rs), digest: rs.Digest(), redactor: red}
}

// Answer is the workflow: the answer of `nous ask` (plan, ground, run the
// passes, compose the report) with every plugin call an activity and the
// clock and the step workers the workflow's own.
func (w *Workflow) Answer(ctx workflow.Context, in Input) (*Output, error) {
	if in.Rules != w.digest {
		return nil, temporal.NewNonRetryableApplicationError(fmt.Sprintf(
			"the run was asked with rules %s but this worker has rules %s: start the workers with the same rules files", short(in.Rules), short(w.digest)), "bad_config", nil)
	}
	var events []runner.Event
	if err := workflow.SetQueryHandler(ctx, queryProgress, func(from int) ([]runner.Event, error) {
		return events[min(max(from, 0), len(events)):], nil
	}); err != nil {
		return nil, err
	}
	// A run recorded before inline steps settled at once made its calls in
	// launch order, and replays only so.
	inOrder := workflow.GetVersion(ctx, inlineStepsSettleAtOnce, workflow.DefaultVersion, 1) == workflow.DefaultVersion
	clock := func() time.Time { return workflow.Now(ctx) }
	if !in.Now.IsZero() {
		clock = func() time.Time { return in.Now }
	}
	deps := ask.Deps{Rules: w.rules, Planner: w.planner, Clock: clock, Redactor: w.redactor, Warnings: io.Discard, WithStats: in.WithStats,
		Progress: func(ev runner.Event) { events = append(events, ev) },
		Time:     workflowTime{ctx}, Workers: func(size int) runner.Pool { return newWorkflowPool(ctx, size) }, SettleInLaunchOrder: inOrder}
	res, err := ask.New(deps).Answer(rootContext(ctx), &ports{}, ask.Request{Query: in.Query, Mode: in.Mode, Session: in.Session, ID: in.ID})
	var planErr *ask.PlanError
	switch {
	case errors.As(err, &planErr) && planErr.Err != nil:
		return &Output{Status: runner.ResultFailed, PlanError: w.redactor.Error(planErr.Err).Error()}, nil
	case errors.As(err, &planErr):
		out := &Output{Status: runner.ResultFailed}
		for _, d := range planErr.Diagnostics {
			out.PlanDiagnostics = append(out.PlanDiagnostics, PlanDiagnostic{Code: string(d.Code), Message: w.redactor.String(d.Message)})
		}
		return out, nil
	case res == nil:
		return &Output{Status: runner.ResultFailed, Error: w.redactor.Error(err).Error()}, nil
	}
	if w.done != nil {
		w.done(res)
	}
	out := &Output{Status: res.Status, Caveats: res.Caveats, Report: w.redactor.String(res.Report)}
	if res.History != nil {
		out.Termination = res.History.Termination
	}
	if err != nil {
		out.Error = w.redactor.Error(err).Error()
	}
	out.Reports = make(map[string][]byte, len(in.Formats))
	for _, f := range in.Formats {
		var b bytes.Buffer
		if rerr := report.Render(&b, f, res, report.Options{Trace: in.Trace, Redactor: w.redactor}); rerr != nil {
			return nil, temporal.NewNonRetryableApplicationError("rendering the report: "+rerr.Error(), "bad_request", nil)
		}
		out.Reports[f] = b.Bytes()
	}
	if in.Session != nil {
		t := ask.Turn(res, w.redactor)
		out.Turn = &t
	}
	if p, err := dataConverter.ToPayload(out); err != nil || proto.Size(p) > maxPayload {
		// Temporal would refuse the result and lose the answer; the
		// history holds every call's result, so the asker replays it.
		out.Reports, out.Oversize = nil, true
	}
	return out, nil
}

// short is a digest's first 12 characters, as logs show it.
func short(digest string) string {
	if len(digest) > 12 {
		return digest[:12]
	}
	return digest
}

// A run's history is bounded below Temporal's limits (50 MB, 51,200
// events), where the service would terminate the run and lose its
// answer: past these, calls fail and the run ends with what it has.
const (
	maxHistoryBytes  = 32 << 20
	maxHistoryEvents = 20000
)

// ports are the plugins of a durable run: each call an activity.
type ports struct {
	seq int // numbers the calls, in the workflow's deterministic order
}

// call runs the activity name on in within ctx's deadline and decodes its
// result into out. The activity's ID names the call, so a replay that
// would make its calls in another order fails instead of pairing them
// with the wrong results.
func (p *ports) call(ctx context.Context, name, what string, in, out any) error {
	wctx := workflowOf(ctx)
	p.seq++
	remaining := time.Minute
	if d, ok := deadlineOf(ctx); ok {
		remaining = d.Sub(workflow.Now(wctx))
	}
	if remaining <= 0 {
		return sdk.Errorf(sdk.KindDeadline, "%s: %w", what, context.DeadlineExceeded)
	}
	if info := workflow.GetInfo(wctx); info.GetCurrentHistorySize() > maxHistoryBytes || info.GetCurrentHistoryLength() > maxHistoryEvents {
		return sdk.Errorf(sdk.KindUnavailable, "%s: not asked: the run's Temporal history holds %d events in %d KiB, at nous's bound (%d events, %d KiB) below Temporal's own",
			what, info.GetCurrentHistoryLength(), info.GetCurrentHistorySize()>>10, maxHistoryEvents, maxHistoryBytes>>10)
	}
	retry := retryPolicy()
	var f workflow.Future
	if name == activityGround || name == activityDescribe {
		// Short questions to a source: a local activity, run by the
		// worker that runs the workflow task, spares two round trips
		// through the service.
		f = workflow.ExecuteLocalActivity(workflow.WithLocalActivityOptions(wctx, workflow.LocalActivityOptions{
			ScheduleToCloseTimeout: remaining, RetryPolicy: retry,
		}), name, in)
	} else {
		f = workflow.ExecuteActivity(workflow.WithActivityOptions(wctx, workflow.ActivityOptions{
			ActivityID:             strconv.Itoa(p.seq) + ":" + name + ":" + what,
			ScheduleToCloseTimeout: remaining,
			HeartbeatTimeout:       heartbeatTimeout,
			RetryPolicy:            retry,
		}), name, in)
	}
	err := f.Get(wctx, out)
	return pluginError(what, err)
}

func (p *ports) Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	var out FetchOutput
	if err := p.call(ctx, activityFetch, source, FetchInput{Source: source, Request: req}, &out); err != nil {
		return err
	}
	for _, r := range out.Records {
		if err := emit(r); err != nil {
			return err
		}
	}
	if out.Cut != nil {
		return out.Cut.error()
	}
	return nil
}

func (p *ports) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	var out sdk.InvokeResponse
	err := p.call(ctx, activityInvoke, agent, InvokeInput{Agent: agent, Request: wireInvoke(req)}, &out)
	return out, err
}

func (p *ports) Ground(ctx context.Context, source string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	var out sdk.GroundResponse
	err := p.call(ctx, activityGround, source, GroundInput{Source: source, Request: req}, &out)
	return out, err
}

func (p *ports) Describe(ctx context.Context, source string) (sdk.SourceInfo, error) {
	var out sdk.SourceInfo
	err := p.call(ctx, activityDescribe, source, source, &out)
	return out, err
}

// error is f as the plugin error it was.
func (f *Failure) error() error {
	return &sdk.Error{Kind: kindNamed(f.Kind), Message: f.Message}
}

// kindNamed is the error kind named name, unknown when none is.
func kindNamed(name string) sdk.ErrorKind {
	for k := sdk.KindUnknown; k <= sdk.KindUnauthorized; k++ {
		if k.String() == name {
			return k
		}
	}
	return sdk.KindUnknown
}

// pluginError is an activity's failure as the plugin error the engine
// reads: the kind the plugin gave, a time-out as a deadline, a
// cancellation as the context's.
func pluginError(what string, err error) error {
	if err == nil {
		return nil
	}
	var app *temporal.ApplicationError
	var timeout *temporal.TimeoutError
	var cancelled *temporal.CanceledError
	switch {
	case errors.As(err, &app):
		return &sdk.Error{Kind: kindNamed(app.Type()), Message: app.Message()}
	case errors.As(err, &timeout):
		return sdk.Errorf(sdk.KindDeadline, "%s: %w", what, context.DeadlineExceeded)
	case errors.As(err, &cancelled):
		return fmt.Errorf("%s: %w", what, context.Canceled)
	}
	return sdk.Errorf(sdk.KindUnavailable, "%s: %v", what, err)
}
