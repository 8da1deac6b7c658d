package server

import (
	"context"
	"errors"
	"time"

	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/session"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// Delegate answers the server's questions elsewhere than in its process:
// `nous serve --temporal` runs each as a durable workflow on the workers
// of a Temporal service. The server still accepts, queues, lists and
// cancels the runs; the delegate plans and runs them.
type Delegate interface {
	Answer(ctx context.Context, q DelegatedQuestion) (*DelegatedAnswer, error)
}

// DelegatedQuestion is a question as the server hands it on.
type DelegatedQuestion struct {
	ID, Query, Mode string
	Session         *session.Session // the conversation it continues (prev), or nil
	Rules           *rules.Ruleset   // the rules it was accepted on
	Digest          string           // their digest
	Redactor        *redact.Redactor // their secrets' mask
	Formats         []string         // to render: "json" (kept) and the request's
	Trace           bool
	WithStats       bool
	Progress        func(runner.Event) // told the run's events, from one goroutine
}

// DelegatedAnswer is how a delegated run ended.
type DelegatedAnswer struct {
	Status, Termination string
	Report              string // the report's text (runner.Result.Report)
	Caveats             []string
	Error               string // what ended the run in error, masked
	// PlanError or PlanDiagnostics say why the question could not run.
	PlanError       string
	PlanDiagnostics []PlanDiagnostic
	Outputs         map[string][]byte // rendered, by format
}

// delegate answers req on snap through s's delegate, as run does in this
// process.
func (s *Server) delegate(ctx context.Context, snap *Snapshot, run Run, req AskRequest, prior *session.Session, progress func(runner.Event)) Answer {
	q := DelegatedQuestion{ID: run.ID, Query: req.Query, Mode: req.Mode, Session: prior, Rules: snap.Rules, Digest: snap.Digest, Redactor: snap.Redactor,
		Formats: []string{"json"}, Trace: req.Trace, WithStats: req.Format == "json", Progress: progress}
	if req.Format != "json" {
		q.Formats = append(q.Formats, req.Format)
	}
	d, err := s.cfg.Delegate.Answer(ctx, q)
	ended := time.Now().UTC()
	run.EndedAt = &ended
	if err == nil && (d.PlanError != "" || len(d.PlanDiagnostics) > 0) {
		err = errors.New(d.PlanError)
		if d.PlanError == "" {
			err = errors.New("plan: " + d.PlanDiagnostics[0].Code + ": " + d.PlanDiagnostics[0].Message)
		}
		run.Status, run.Error = runner.ResultFailed, snap.Redactor.String(err.Error())
		s.runs.end(run, nil)
		return Answer{Run: run, Err: err, Diagnostics: d.PlanDiagnostics}
	}
	if err != nil {
		run.Status, run.Error = runner.ResultFailed, snap.Redactor.String(err.Error())
		s.runs.end(run, nil)
		return Answer{Run: run, Err: err}
	}
	run.Status, run.Error = d.Status, snap.Redactor.String(d.Error)
	var runErr error
	if d.Error != "" {
		runErr = errors.New(d.Error)
	}
	s.runs.end(run, d.Outputs["json"])
	res := &runner.Result{ExecutionID: run.ID, Query: req.Query, Mode: req.Mode, Status: d.Status, Report: d.Report, Caveats: d.Caveats,
		Error: d.Error, History: &history.History{ExecutionID: run.ID, Termination: d.Termination}}
	return Answer{Run: run, Result: res, Output: d.Outputs[req.Format], JSON: d.Outputs["json"], Err: runErr}
}
