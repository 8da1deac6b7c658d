package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/session"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// envNow fixes the clock of `nous ask` (RFC 3339), for reproducible runs:
// dates like "last week" resolve against it and every timestamp is it.
const envNow = "NOUS_NOW"

// askCommand is `nous ask`: plan a question, run the plan, print the report.
func (a *app) askCommand() *cobra.Command {
	var format, mode, logDir, sessionID string
	var showTrace bool
	var tf temporalFlags
	cmd := &cobra.Command{
		Use:   "ask QUESTION",
		Short: "Answer a question: plan it, run the plan through sources and agents, print the report",
		Long: `Detect the question's intents, plan them, run the plan in the multi-pass
loop (retrieve, transform, analyst/critic/writer, validate, refine) and print
the report. Progress goes to stderr when it is a terminal.

Exit 0 when the run answered the question, fully (success) or in part
(partial: the report's first lines say what is missing); 1 when nothing
answers it (failed: no source answered, no report was written), when it
was interrupted, or when nothing could be printed, with the reason on
stderr (what was produced is still printed); 2 on bad usage or rules; 3
when the question is ambiguous (needs_clarification: a command names
nothing to act on, a name matches several people, two intents that exclude
each other): nothing ran, and the output is the question nous asks back
and its options.`,
		Example: `  nous ask "what changed in this repository last week?"
  nous ask --format markdown --trace "what is the status of the project?"
  nous ask --mode strict --format nlweb "verify the payments outage"
  nous ask --log-dir ./runs --format json "how many open issues are there?"
  nous ask --session t1 "what changed last week?" && nous ask --session t1 "and the week before?"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			query := strings.TrimSpace(strings.Join(args, " "))
			if query == "" {
				return usageError("ask: the question is empty")
			}
			if !slices.Contains(report.Formats, format) {
				return usageError("ask: --format %q: want one of %s", format, strings.Join(report.Formats, ", "))
			}
			if logDir != "" {
				// Asked-for logs that cannot be written are a usage error
				// before the run, not a warning after it.
				if err := os.MkdirAll(logDir, 0o755); err != nil {
					return usageError("ask: --log-dir: %v", err)
				}
			}
			clock, err := a.askClock()
			if err != nil {
				return err
			}
			rs, err := a.loadRules()
			if err != nil {
				return err
			}
			red := a.redactor(rs)
			// Of the outputs only JSON shows record fields; the log directory
			// shows them only in an LLM agent's prompt, and the default rules
			// compute them for such agents anyway (sources.hcl, stats).
			deps := ask.Deps{Rules: rs, Clock: clock, Redactor: red, Logger: a.engineLogger(red), Warnings: a.stderr, LogDir: logDir,
				WithStats: format == "json"}
			if a.stderrIsTerminal() {
				deps.Progress = progressPrinter(a.stderr)
			}
			svc := ask.New(deps)
			if err := svc.CheckMode(mode); err != nil {
				return usageError("--mode: %v", err)
			}
			req := ask.Request{Query: query, Mode: mode}
			var store *session.Store
			if cmd.Flags().Changed("session") {
				if err := session.CheckID(sessionID); err != nil {
					return usageError("ask: --session: %v", err)
				}
				if store, err = a.sessionStore(rs); err != nil {
					return usageError("ask: --session: %v", err)
				}
				if req.Session, err = store.Load(sessionID); err != nil {
					return &exitError{Code: exitFindings, Err: fmt.Errorf("ask: %w", err)}
				}
				if req.Session.Expired {
					fmt.Fprintf(a.stderr, "nous: session %s was not used for more than %s (session.max_age): it starts again\n", sessionID, rs.Session.MaxAge)
				}
			}
			if tf.hostPort != "" {
				if logDir != "" {
					return usageError("ask: --log-dir does not apply with --temporal: Temporal keeps the run's history (see nous replay)")
				}
				var save func(session.Turn) error
				if store != nil {
					save = func(t session.Turn) error { return store.Append(sessionID, t) }
				}
				return a.askDurable(cmd.Context(), &tf, rs, red, deps, req, format, showTrace, save)
			}
			return a.withPlugins(cmd.Context(), rs, red, func(ctx context.Context, m *plugin.Manager) error {
				res, runErr := svc.Answer(ctx, m, req)
				if res == nil {
					return askError(a.stderr, runErr)
				}
				if store != nil {
					// Saved before printing, so an output error loses no turn.
					if err := store.Append(sessionID, ask.Turn(res, red)); err != nil {
						return &exitError{Code: exitFindings, Err: fmt.Errorf("ask: %w", red.Error(err))}
					}
				}
				out, w := a.reportWriter(format)
				if err := report.Render(w, format, res, report.Options{Trace: showTrace, Redactor: red}); err != nil {
					return fmt.Errorf("ask: writing output: %w", err)
				}
				return askExit(res, runErr, out.n, red)
			})
		},
	}
	f := cmd.Flags()
	f.StringVarP(&format, "format", "f", "text", "output format: "+strings.Join(report.Formats, ", "))
	f.StringVar(&mode, "mode", "", "tier mode (default: chosen by the mode rules, else the rules' default_mode)")
	f.StringVar(&logDir, "log-dir", "", "write per-run JSON logs (iteration files, history.json, session_summary.json) under this directory")
	f.StringVar(&sessionID, "session", "", "continue the conversation ID (a new ID starts one): earlier questions and answers are context; kept under $"+session.EnvDir+", else the user's state directory")
	f.BoolVar(&showTrace, "trace", false, "print the reasoning trace after the report (text and markdown; json always has it)")
	tf.add(f, "run the question as a durable workflow")
	return cmd
}

// askExit is the exit of a finished run whose output took written bytes:
// nil (exit 0) only when the run answered and something was printed; 3
// when the question was asked back. The
// reason it gives is masked by red.
func askExit(res *runner.Result, runErr error, written int64, red *redact.Redactor) error {
	switch {
	case runErr != nil:
		return &exitError{Code: exitFindings, Err: red.Error(runErr)}
	case res.Status == runner.ResultFailed || res.Status == runner.ResultCancelled:
		err := fmt.Errorf("run %s (%s)", res.Status, res.History.Termination)
		if len(res.Caveats) > 0 {
			err = fmt.Errorf("%w: %s", err, strings.Join(res.Caveats, " "))
		}
		return &exitError{Code: exitFindings, Err: red.Error(err)}
	case written == 0:
		return &exitError{Code: exitFindings, Err: fmt.Errorf("run %s, but it printed nothing", res.Status)}
	case res.Status == runner.ResultNeedsClarification:
		return &exitError{Code: exitClarify} // the output is the question
	}
	return nil
}

// reportWriter is where a report in format goes: stdout, counted, and
// kept from moving a terminal when the format is for one.
func (a *app) reportWriter(format string) (*countingWriter, io.Writer) {
	out := &countingWriter{w: a.stdout}
	if format == "text" || format == "markdown" {
		return out, terminalSafe{out}
	}
	return out, out
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// askClock is the real clock, or the fixed time in $NOUS_NOW.
func (a *app) askClock() (func() time.Time, error) {
	v, ok := a.lookupEnv(envNow)
	if !ok {
		return time.Now, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, usageError("$%s: %q is not an RFC 3339 time (e.g. 2026-11-10T12:00:00Z)", envNow, v)
	}
	return func() time.Time { return t }, nil
}

// askError is the exit of a question that did not run: a plan that failed
// is a usage error, a plan with errors prints them and is a finding.
func askError(w io.Writer, err error) error {
	var pe *ask.PlanError
	switch {
	case !errors.As(err, &pe):
		return fmt.Errorf("ask: %w", err)
	case pe.Err != nil:
		return usageError("ask: %v", pe.Err)
	}
	for _, d := range pe.Diagnostics {
		fmt.Fprintf(w, "nous: plan: %s: %s\n", d.Code, d.Message)
	}
	return findings()
}

// engineLogger logs the engine's warnings to stderr, secrets masked, at
// $NOUS_LOG_LEVEL; a level it does not know keeps warn, as the plugin
// logger does.
func (a *app) engineLogger(red *redact.Redactor) *slog.Logger {
	level := slog.LevelWarn
	if v, ok := a.lookupEnv(envLogLevel); ok {
		if level.UnmarshalText([]byte(v)) != nil {
			level = slog.LevelWarn
		}
	}
	return slog.New(red.Handler(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level})))
}

func (a *app) stderrIsTerminal() bool {
	w := a.stderr
	if l, ok := w.(*lockedWriter); ok {
		w = l.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressPrinter shows passes, steps and refinements as they happen.
func progressPrinter(w io.Writer) func(runner.Event) {
	return func(ev runner.Event) {
		switch ev.Kind {
		case "pass":
			fmt.Fprintf(w, "── pass %d\n", ev.Pass)
		case "start":
			fmt.Fprintf(w, "  … %-5s %s\n", ev.Step, ev.Description)
		case "end":
			mark := "✓"
			switch engine.Status(ev.Status) {
			case engine.StatusFailed:
				mark = "✗"
			case engine.StatusSkipped:
				mark = "-"
			case engine.StatusInvalid:
				mark = "↻"
			}
			line := fmt.Sprintf("  %s %-5s %s", mark, ev.Step, ev.Status)
			if ev.Detail != "" {
				line += ": " + ev.Detail
			}
			fmt.Fprintln(w, line)
		case "refine":
			fmt.Fprintf(w, "  ↻ %s %s: %s\n", ev.Status, ev.Step, ev.Detail)
		case "depth":
			fmt.Fprintf(w, "  ⇅ depth %s\n", ev.Detail)
		case "done":
			fmt.Fprintf(w, "── %s (%s)\n", ev.Status, ev.Detail)
		}
	}
}
