package server

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
)

// retryAfter is what a refused run is told to wait, in seconds.
const retryAfter = "2"

// askRequest is the body of POST /v1/ask.
type askRequest struct {
	Query  string `json:"query"`
	Mode   string `json:"mode,omitempty"`
	Format string `json:"format,omitempty"` // as `nous ask --format`; json by default
	Trace  bool   `json:"trace,omitempty"`  // as `nous ask --trace`
}

// answered is how Answer returned.
type answered struct {
	res *runner.Result
	err error
}

// ask is POST /v1/ask: it runs the question as `nous ask` does and answers
// with what `nous ask --format F` prints, or streams the run's events
// first when the client accepts text/event-stream.
func (s *Server) ask(w http.ResponseWriter, r *http.Request) {
	var req askRequest
	if !decodeBody(w, r, &req) {
		return
	}
	req.Query = strings.TrimSpace(req.Query)
	req.Format = strings.ToLower(cmp.Or(req.Format, "json"))
	switch {
	case req.Query == "":
		writeError(w, http.StatusBadRequest, "query: the question is empty")
		return
	case !slices.Contains(report.Formats, req.Format):
		writeError(w, http.StatusBadRequest, "format %q: want one of %s", req.Format, strings.Join(report.Formats, ", "))
		return
	}
	if s.isDraining() {
		writeError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	free, err := s.slots.acquire(r.Context())
	switch {
	case errors.Is(err, errBusy):
		s.metrics.refused.Inc()
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusTooManyRequests, "%v", err)
		return
	case err != nil:
		return // the client went away while queued
	}
	defer free()
	snap, release := s.cfg.Snapshots.Acquire()
	defer release()
	s.run(w, r, snap, req)
}

// run answers req on snap, streaming when the client asked for events.
func (s *Server) run(w http.ResponseWriter, r *http.Request, snap *Snapshot, req askRequest) {
	stream := acceptsEvents(r)
	events := make(chan runner.Event, 64)
	// A client that goes away cancels its run, as DELETE and the end of
	// the shutdown grace period do.
	ctx, cancel := context.WithCancel(s.runCtx)
	defer cancel()
	defer context.AfterFunc(r.Context(), cancel)()
	logger := slog.New(snap.Redactor.Handler(s.cfg.Logger.Handler()))
	deps := ask.Deps{Rules: snap.Rules, Clock: s.cfg.Clock, Redactor: snap.Redactor, Logger: logger,
		Warnings: logLines{logger}, LogDir: s.cfg.LogDir, WithStats: req.Format == "json"}
	steps := s.metrics.stepTimer()
	deps.Progress = func(ev runner.Event) {
		steps.event(ev)
		if !stream {
			return
		}
		select {
		case events <- ev:
		case <-ctx.Done():
		}
	}
	svc := ask.New(deps)
	if err := svc.CheckMode(req.Mode); err != nil {
		writeError(w, http.StatusBadRequest, "mode: %v", err)
		return
	}
	start := time.Now()
	run := Run{ID: history.NewID(s.cfg.Clock()), Query: snap.Redactor.String(req.Query), Mode: req.Mode,
		Status: StatusRunning, StartedAt: start.UTC()}
	s.runs.start(run, cancel)
	done := make(chan answered, 1)
	go func() {
		res, err := svc.Answer(ctx, snap.Plugins, ask.Request{Query: req.Query, Mode: req.Mode, ID: run.ID})
		done <- answered{res, err}
	}()
	var sse *eventStream
	if stream {
		sse = newEventStream(w, run.ID)
	}
	var a answered
	for waiting := true; waiting; {
		select {
		case ev := <-events:
			sse.event(ev, snap.Redactor)
		case a = <-done:
			waiting = false
		}
	}
	for len(events) > 0 { // what the run told before it returned
		sse.event(<-events, snap.Redactor)
	}
	out, detail := s.finish(&run, a, req, snap)
	s.metrics.ran(run.Status, time.Since(start))
	s.cfg.Logger.Info("run ended", "id", run.ID, "status", run.Status, "duration", time.Since(start).Round(time.Millisecond))
	switch {
	case sse != nil && (sse.started || out != nil):
		sse.result(run, out)
	case out == nil:
		writeRunError(w, a.err, run.Error, detail)
	default:
		w.Header().Set("Location", "/v1/runs/"+run.ID)
		w.Header().Set("Nous-Run-Id", run.ID)
		w.Header().Set("Content-Type", contentType(req.Format))
		_, _ = w.Write(out)
	}
}

// finish stores how the run ended and renders its output in req's format;
// a question that did not run has no output, and the diagnostics of its
// plan instead.
func (s *Server) finish(run *Run, a answered, req askRequest, snap *Snapshot) ([]byte, []planDiagnostic) {
	ended := time.Now().UTC()
	run.EndedAt = &ended
	if a.err != nil {
		run.Error = snap.Redactor.String(a.err.Error())
	}
	if a.res == nil {
		run.Status = runner.ResultFailed
		s.runs.end(*run, nil)
		var pe *ask.PlanError
		if errors.As(a.err, &pe) {
			var diags []planDiagnostic
			for _, d := range pe.Diagnostics {
				diags = append(diags, planDiagnostic{Code: string(d.Code), Message: snap.Redactor.String(d.Message)})
			}
			return nil, diags
		}
		return nil, nil
	}
	run.Status = a.res.Status
	var stored, out bytes.Buffer
	opts := report.Options{Redactor: snap.Redactor}
	if err := report.Render(&stored, "json", a.res, opts); err != nil {
		run.Error = "rendering the result: " + err.Error()
	}
	s.runs.end(*run, stored.Bytes())
	if req.Format == "json" {
		return stored.Bytes(), nil
	}
	opts.Trace = req.Trace
	if err := report.Render(&out, req.Format, a.res, opts); err != nil {
		return []byte("rendering the result: " + err.Error()), nil
	}
	return out.Bytes(), nil
}

// writeRunError answers a question that did not run (err, masked as msg):
// 422 for a plan with errors, 400 for a question the rules cannot plan,
// 500 for anything else.
func writeRunError(w http.ResponseWriter, err error, msg string, diags []planDiagnostic) {
	var pe *ask.PlanError
	code := http.StatusInternalServerError
	switch {
	case len(diags) > 0:
		code = http.StatusUnprocessableEntity
	case errors.As(err, &pe):
		code = http.StatusBadRequest
	}
	writeJSON(w, code, apiError{Error: msg, Diagnostics: diags})
}

// isDraining reports whether the server is shutting down.
func (s *Server) isDraining() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draining
}

// contentType is the media type of a report format.
func contentType(format string) string {
	switch format {
	case "markdown":
		return "text/markdown; charset=utf-8"
	case "text":
		return "text/plain; charset=utf-8"
	}
	return "application/json"
}

// logLines logs what the answer warns about (an agent falling back), one
// warning per write.
type logLines struct{ logger *slog.Logger }

func (l logLines) Write(p []byte) (int, error) {
	l.logger.Warn(strings.TrimSpace(string(p)))
	return len(p), nil
}
