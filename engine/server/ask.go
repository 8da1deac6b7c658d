package server

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
)

// AskRequest is one question: the body of POST /v1/ask.
type AskRequest struct {
	Query  string `json:"query"`
	Mode   string `json:"mode,omitempty"`
	Format string `json:"format,omitempty"` // as `nous ask --format`; json by default
	Trace  bool   `json:"trace,omitempty"`  // as `nous ask --trace`
	// Prev are the conversation's earlier questions, oldest first, for a
	// front end that keeps no session (NLWeb's prev): the question is read
	// as their follow-up (see ask.Service.Prior).
	Prev []string `json:"-"`
}

// Watch is what the caller of Ask hears while its run goes on. Either
// func may be nil; neither is called once Ask has returned.
type Watch struct {
	// Started is called once the run has its ID and is listed in
	// GET /v1/runs, before it plans.
	Started func(Run)
	// Progress is told the run's events (masked), from one goroutine.
	Progress func(runner.Event)
}

// Answer is how a run ended.
type Answer struct {
	Run    Run
	Result *runner.Result // nil when the question did not run
	// Output is what `nous ask --format F` prints for the request's
	// format; nil when the question did not run.
	Output []byte
	// JSON is what `nous ask --format json` prints, whatever the request's
	// format (the run as GET /v1/runs/{id} keeps it); nil when the question
	// did not run.
	JSON []byte
	// Err is why the question did not run, or what failed it; its masked
	// text is Run.Error.
	Err error
	// Diagnostics are the errors of a plan the rules cannot run.
	Diagnostics []PlanDiagnostic
}

// Errors of Ask and Plan that are not about the run itself.
var (
	ErrBusy     = errors.New("too many runs: every slot is taken and the queue is full")
	ErrDraining = errors.New("the server is shutting down")
)

// RequestError is a request the server cannot take as it is: which field,
// and what was expected.
type RequestError struct {
	Field string // empty when it is about the request as a whole
	Msg   string
}

func (e *RequestError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// Ask runs req as `nous ask` does, on the rules current when it is
// accepted, and returns how it ended. The run is listed in GET /v1/runs
// as soon as it is accepted (watch.Started names it): queued while it
// waits for a slot, when every slot is taken and there is room in the
// queue, then running. It is kept there once it ended, and ends early,
// as cancelled, when ctx ends, when DELETE /v1/runs/{id} cancels it or
// when the server's grace period is over: with its partial history when
// it was running, without a step run when it was still queued. The error
// is ErrBusy, ErrDraining or a *RequestError: the question was not
// accepted.
func (s *Server) Ask(ctx context.Context, req AskRequest, watch Watch) (Answer, error) {
	req.Query = strings.TrimSpace(req.Query)
	req.Format = strings.ToLower(cmp.Or(req.Format, "json"))
	switch {
	case req.Query == "":
		return Answer{}, &RequestError{Field: "query", Msg: "the question is empty"}
	case !slices.Contains(report.Formats, req.Format):
		return Answer{}, &RequestError{Field: "format", Msg: fmt.Sprintf("%q: want one of %s", req.Format, strings.Join(report.Formats, ", "))}
	}
	if s.isDraining() {
		return Answer{}, ErrDraining
	}
	snap, release := s.cfg.Snapshots.Acquire()
	defer release()
	return s.run(ctx, snap, req, watch)
}

// run answers req on snap.
func (s *Server) run(ctx context.Context, snap *Snapshot, req AskRequest, watch Watch) (Answer, error) {
	// The caller going away cancels the run, as DELETE and the end of the
	// shutdown grace period do.
	ctx, cancel := mergeCancel(s.runCtx, ctx)
	defer cancel()
	logger := slog.New(snap.Redactor.Handler(s.cfg.Logger.Handler()))
	deps := ask.Deps{Rules: snap.Rules, Planner: s.planners.get(snap), Clock: s.cfg.Clock, Redactor: snap.Redactor, Logger: logger,
		Warnings: logLines{logger}, LogDir: s.cfg.LogDir, WithStats: req.Format == "json"}
	steps := s.metrics.stepTimer()
	deps.Progress = func(ev runner.Event) {
		steps.event(ev)
		if watch.Progress != nil {
			ev.Description, ev.Detail = snap.Redactor.String(ev.Description), snap.Redactor.String(ev.Detail)
			watch.Progress(ev)
		}
	}
	svc := ask.New(deps)
	if err := svc.CheckMode(req.Mode); err != nil {
		return Answer{}, &RequestError{Field: "mode", Msg: err.Error()}
	}
	prior, err := svc.Prior(ctx, req.Prev, req.Mode)
	if err != nil {
		return Answer{}, &RequestError{Field: "prev", Msg: snap.Redactor.String(err.Error())}
	}
	place, err := s.slots.enter()
	if err != nil {
		s.metrics.refused.Inc()
		return Answer{}, err
	}
	defer place.leave()
	run := Run{ID: history.NewID(s.cfg.Clock()), Query: snap.Redactor.String(req.Query), Mode: req.Mode,
		Status: StatusRunning, StartedAt: time.Now().UTC()}
	if !place.held {
		run.Status = StatusQueued
	}
	s.runs.start(run, cancel)
	if watch.Started != nil {
		watch.Started(run)
	}
	if run.Status == StatusQueued {
		s.cfg.Logger.Debug("run queued", "id", run.ID)
		if place.wait(ctx) == nil {
			s.runs.running(run.ID)
		}
		// A run cancelled while queued goes on without a slot: on its
		// cancelled context it runs no step and ends as cancelled, with
		// its plan, as a run cancelled while running does.
	}
	start := time.Now()
	var a Answer
	if s.cfg.Delegate != nil {
		a = s.delegate(ctx, snap, run, req, prior, deps.Progress)
	} else {
		res, err := svc.Answer(ctx, snap.Plugins, ask.Request{Query: req.Query, Mode: req.Mode, ID: run.ID, Session: prior})
		a = s.finish(run, res, err, req, snap)
	}
	s.metrics.ran(a.Run.Status, time.Since(start))
	s.cfg.Logger.Info("run ended", "id", run.ID, "status", a.Run.Status, "duration", time.Since(start).Round(time.Millisecond))
	return a, nil
}

// mergeCancel is parent, also cancelled when other ends.
func mergeCancel(parent, other context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	stop := context.AfterFunc(other, cancel)
	return ctx, func() { stop(); cancel() }
}

// finish stores how the run ended and renders its output in req's format;
// a question that did not run has no output, and the diagnostics of its
// plan instead.
func (s *Server) finish(run Run, res *runner.Result, err error, req AskRequest, snap *Snapshot) Answer {
	ended := time.Now().UTC()
	run.EndedAt = &ended
	if err != nil {
		run.Error = snap.Redactor.String(err.Error())
	}
	a := Answer{Result: res, Err: err}
	if res == nil {
		run.Status = runner.ResultFailed
		s.runs.end(run, nil)
		var pe *ask.PlanError
		if errors.As(err, &pe) {
			for _, d := range pe.Diagnostics {
				a.Diagnostics = append(a.Diagnostics, PlanDiagnostic{Code: string(d.Code), Message: snap.Redactor.String(d.Message)})
			}
		}
		a.Run = run
		return a
	}
	run.Status = res.Status
	var stored, out bytes.Buffer
	masked := report.Mask(res, snap.Redactor) // once for both formats
	if err := masked.Render(&stored, "json", false); err != nil {
		run.Error = "rendering the result: " + err.Error()
	}
	s.runs.end(run, stored.Bytes())
	a.Run, a.JSON = run, stored.Bytes()
	if req.Format == "json" {
		a.Output = stored.Bytes()
		return a
	}
	if err := masked.Render(&out, req.Format, req.Trace); err != nil {
		a.Output = []byte("rendering the result: " + err.Error())
		return a
	}
	a.Output = out.Bytes()
	return a
}

// isDraining reports whether the server is shutting down.
func (s *Server) isDraining() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draining
}

// logLines logs what the answer warns about (an agent falling back), one
// warning per write.
type logLines struct{ logger *slog.Logger }

func (l logLines) Write(p []byte) (int, error) {
	l.logger.Warn(strings.TrimSpace(string(p)))
	return len(p), nil
}
