//go:build temporal

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/contrib/envconfig"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/durable"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/engine/session"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// dialTimeout bounds connecting to the Temporal service.
const dialTimeout = 10 * time.Second

// dial connects to the service the flags name, as Temporal's own client
// configuration says how (TEMPORAL_API_KEY, TEMPORAL_TLS_*, the profile
// file): a run started through it may take up to timeout, the wait for a
// worker included.
func (a *app) dial(ctx context.Context, t *temporalFlags, timeout time.Duration, logger *slog.Logger) (client.Client, durable.Options, error) {
	o := durable.Options{HostPort: t.hostPort, Namespace: t.namespace, TaskQueue: t.taskQueue, RunTimeout: timeout, Logger: logger}
	conn, err := a.temporalConnection()
	if err != nil {
		return nil, o, err
	}
	if conn.Namespace != "" && !t.flags.Changed("namespace") {
		o.Namespace, t.namespace = conn.Namespace, conn.Namespace
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	c, err := durable.Dial(dctx, o, conn)
	if err != nil {
		return nil, o, fmt.Errorf("connecting to Temporal at %s (namespace %s): %w", t.hostPort, t.namespace, err)
	}
	return c, o, nil
}

// temporalConnection is how to connect to Temporal, from its standard
// client configuration: the profile file ($TEMPORAL_CONFIG_FILE, else
// temporalio/temporal.toml in the user's config directory) and the
// TEMPORAL_* variables over it. The flags name the address and namespace.
func (a *app) temporalConnection() (client.Options, error) {
	conn, err := envconfig.LoadClientOptions(envconfig.LoadClientOptionsRequest{EnvLookup: appEnv{a}})
	if err != nil {
		return client.Options{}, fmt.Errorf("Temporal's client configuration (TEMPORAL_* variables, temporal.toml): %w", err)
	}
	return conn, nil
}

// appEnv is the app's environment as envconfig reads it.
type appEnv struct{ a *app }

func (e appEnv) LookupEnv(key string) (string, bool) { return e.a.lookupEnv(key) }

func (e appEnv) Environ() []string {
	if e.a.environ == nil {
		return nil
	}
	return e.a.environ()
}

// runTimeout bounds a durable run: the longest TTL the rules give a run,
// twice over for the wait for a worker and its retries.
func runTimeout(rs *rules.Ruleset) time.Duration {
	ttl := rs.Loop.TTL
	for _, d := range rs.Depths {
		ttl = max(ttl, d.TTL)
	}
	return 2*ttl + time.Minute
}

func (a *app) workerCommand() *cobra.Command {
	var tf temporalFlags
	cmd := &cobra.Command{
		Use:   "worker --temporal HOST:PORT",
		Short: "Host durable runs: their workflow and plugin calls, for a Temporal service",
		Long: `Run a Temporal worker that hosts nous's workflow (planning, the passes,
validation, refinement, the report) and its activities (every source and
agent call) with warm plugin processes, on the task queue runs are started
on by nous ask --temporal and nous serve --temporal. Start as many as the
load needs, on as many machines, each with the same rules: a worker whose
rules differ from the asker's refuses the run. Stops on SIGINT or SIGTERM,
letting its activities finish.`,
		Example: `  nous worker --temporal 127.0.0.1:7233
  nous worker --temporal temporal.internal:7233 --namespace nous --task-queue payments`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if tf.hostPort == "" {
				return usageError("worker: --temporal HOST:PORT is required")
			}
			rs, err := a.loadRules()
			if err != nil {
				return err
			}
			red := a.redactor(rs)
			return a.withPlugins(cmd.Context(), rs, red, func(ctx context.Context, m *plugin.Manager) error {
				c, o, err := a.dial(ctx, &tf, runTimeout(rs), a.engineLogger(red))
				if err != nil {
					return fmt.Errorf("worker: %w", red.Error(err))
				}
				defer c.Close()
				w := durable.NewWorker(c, o, durable.NewWorkflow(rs, red), &durable.Activities{Plugins: m, Redactor: red})
				if err := w.Start(); err != nil {
					return fmt.Errorf("worker: %w", red.Error(err))
				}
				fmt.Fprintf(a.stderr, "nous: worker on %s (namespace %s, task queue %s), rules %s\n", tf.hostPort, tf.namespace, tf.taskQueue, rs.Digest()[:12])
				<-ctx.Done()
				w.Stop()
				return nil
			})
		},
	}
	tf.add(cmd.Flags(), "host runs")
	return cmd
}

// askDurable answers req as a workflow on the service tf names and prints
// its report as nous ask does.
func (a *app) askDurable(ctx context.Context, tf *temporalFlags, rs *rules.Ruleset, red *redact.Redactor, deps ask.Deps, req ask.Request,
	format string, showTrace bool, save func(session.Turn) error) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, o, err := a.dial(ctx, tf, runTimeout(rs), a.engineLogger(red))
	if err != nil {
		return &exitError{Code: exitFindings, Err: fmt.Errorf("ask: %w", red.Error(err))}
	}
	defer c.Close()
	in := durable.Input{Query: req.Query, Mode: req.Mode, ID: history.NewID(deps.Clock()), Rules: rs.Digest(), Formats: []string{format},
		Trace: showTrace, WithStats: deps.WithStats, Session: req.Session}
	if _, fixed := a.lookupEnv(envNow); fixed {
		in.Now = deps.Clock()
	}
	fmt.Fprintf(a.stderr, "nous: durable run %s on %s (namespace %s, task queue %s)\n", durable.WorkflowID(in.ID), tf.hostPort, tf.namespace, tf.taskQueue)
	out, err := durable.Ask(ctx, c, o, in, durable.Watch{Progress: deps.Progress, Waiting: func() {
		fmt.Fprintf(a.stderr, "nous: no worker has taken the run yet: is one running (nous worker --temporal %s --task-queue %s)?\n", tf.hostPort, tf.taskQueue)
	}})
	if err != nil {
		return &exitError{Code: exitFindings, Err: fmt.Errorf("ask: %w", red.Error(err))}
	}
	switch {
	case out.PlanError != "":
		return usageError("ask: %s", out.PlanError)
	case len(out.PlanDiagnostics) > 0:
		for _, d := range out.PlanDiagnostics {
			fmt.Fprintf(a.stderr, "nous: plan: %s: %s\n", d.Code, d.Message)
		}
		return findings()
	}
	if save != nil && out.Turn != nil {
		if err := save(*out.Turn); err != nil {
			return &exitError{Code: exitFindings, Err: fmt.Errorf("ask: %w", red.Error(err))}
		}
	}
	w, dst := a.reportWriter(format)
	if out.Oversize {
		// Rendered even when the run was cancelled: its partial report.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dialTimeout*6)
		out.Reports, err = replayedReports(rctx, c, in.ID, rs, red, in.Formats, showTrace)
		cancel()
		if err != nil {
			return &exitError{Code: exitFindings, Err: fmt.Errorf("ask: %w", red.Error(err))}
		}
	}
	if _, err := dst.Write(out.Reports[format]); err != nil {
		return fmt.Errorf("ask: writing output: %w", err)
	}
	var runErr error
	if out.Error != "" {
		runErr = errors.New(out.Error)
	}
	res := &runner.Result{Status: out.Status, Caveats: out.Caveats, History: &history.History{Termination: out.Termination}}
	return askExit(res, runErr, w.n, red)
}

// replayedReports renders run id's report in formats from its history:
// the workflow leaves out a report too large for a Temporal payload, and
// the history holds every call's result.
func replayedReports(ctx context.Context, c client.Client, id string, rs *rules.Ruleset, red *redact.Redactor, formats []string, trace bool) (map[string][]byte, error) {
	h, err := durable.History(ctx, c, durable.WorkflowID(id))
	if err != nil {
		return nil, err
	}
	res, err := durable.Replay(rs, red, h)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(formats))
	for _, f := range formats {
		var b bytes.Buffer
		if err := report.Render(&b, f, res, report.Options{Trace: trace, Redactor: red}); err != nil {
			return nil, err
		}
		out[f] = b.Bytes()
	}
	return out, nil
}

// serveDelegate connects nous serve to the Temporal service tf names; close
// ends the connection.
func (a *app) serveDelegate(ctx context.Context, tf *temporalFlags) (server.Delegate, func(), error) {
	c, o, err := a.dial(ctx, tf, serveRunTimeout, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("serve: %w", err)
	}
	d := durableDelegate{client: c, opts: o}
	if _, fixed := a.lookupEnv(envNow); fixed {
		clock, err := a.askClock()
		if err != nil {
			c.Close()
			return nil, nil, err
		}
		d.now = clock()
	}
	return d, c.Close, nil
}

// serveRunTimeout bounds a run nous serve --temporal starts, the wait
// for a worker included: its rules may be reloaded with other TTLs.
const serveRunTimeout = time.Hour

// durableDelegate runs nous serve's questions as workflows.
type durableDelegate struct {
	client client.Client
	opts   durable.Options
	now    time.Time // the fixed clock ($NOUS_NOW), or zero
}

func (d durableDelegate) Answer(ctx context.Context, q server.DelegatedQuestion) (*server.DelegatedAnswer, error) {
	in := durable.Input{Query: q.Query, Mode: q.Mode, ID: q.ID, Rules: q.Digest, Formats: q.Formats, Trace: q.Trace, WithStats: q.WithStats,
		Session: q.Session, Now: d.now}
	out, err := durable.Ask(ctx, d.client, d.opts, in, durable.Watch{Progress: q.Progress})
	if err != nil {
		return nil, err
	}
	if out.Oversize {
		if out.Reports, err = replayedReports(ctx, d.client, q.ID, q.Rules, q.Redactor, q.Formats, q.Trace); err != nil {
			return nil, err
		}
	}
	a := &server.DelegatedAnswer{Status: out.Status, Termination: out.Termination, Report: out.Report, Caveats: out.Caveats, Error: out.Error,
		PlanError: out.PlanError, Outputs: out.Reports}
	for _, pd := range out.PlanDiagnostics {
		a.PlanDiagnostics = append(a.PlanDiagnostics, server.PlanDiagnostic{Code: pd.Code, Message: pd.Message})
	}
	return a, nil
}

func (a *app) replayCommand() *cobra.Command {
	var format string
	var showTrace bool
	cmd := &cobra.Command{
		Use:   "replay HISTORY.json",
		Short: "Re-render a durable run's report from its Temporal history, calling no plugin",
		Long: `Replay a finished durable run's workflow history (as written by
temporal workflow show --output json) with the rules given: every plugin
call's result is the one recorded, so no source or agent is asked, and the
report is rendered anew in any format. Fails when the history does not
replay with these rules and this nous: the workflow would now make other
calls than it recorded.`,
		Example: `  temporal workflow show -w nous-RUN_ID --output json > run.json
  nous replay run.json
  nous replay --format markdown --trace run.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(report.Formats, format) {
				return usageError("replay: --format %q: want one of %v", format, report.Formats)
			}
			rs, err := a.loadRules()
			if err != nil {
				return err
			}
			red := a.redactor(rs)
			f, err := os.Open(args[0])
			if err != nil {
				return usageError("replay: %v", err)
			}
			defer f.Close()
			h, err := durable.ReadHistory(f)
			if err != nil {
				return usageError("replay: %s: %v", args[0], err)
			}
			res, err := durable.Replay(rs, red, h)
			if err != nil {
				return &exitError{Code: exitFindings, Err: fmt.Errorf("replay: %s: %w", args[0], red.Error(err))}
			}
			_, dst := a.reportWriter(format)
			if err := report.Render(dst, format, res, report.Options{Trace: showTrace, Redactor: red}); err != nil {
				return fmt.Errorf("replay: writing output: %w", err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&format, "format", "f", "text", "output format")
	f.BoolVar(&showTrace, "trace", false, "print the reasoning trace after the report (text and markdown)")
	return cmd
}
