package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/spf13/cobra"
)

// serveCommand is `nous serve`: the engine as a long-running HTTP service.
func (a *app) serveCommand() *cobra.Command {
	cfg := server.Config{}
	var addr, tokenFile string
	var tf temporalFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the /v1 HTTP API: plans and runs with rules loaded once and warm plugins",
		Long: `Load the rules once, start their plugins and answer the /v1 HTTP API:
POST /v1/plan, POST /v1/ask (JSON, or Server-Sent Events with
Accept: text/event-stream), GET and DELETE /v1/runs/{id}, GET /v1/runs,
GET /v1/rules, /healthz and /readyz; the MCP tools of 'nous mcp' at /mcp
(streamable HTTP). Runs share the plugin processes and
execute concurrently, as 'nous ask' would run them: up to --max-runs at
once, up to --queue more waiting for a slot (listed as queued), beyond
which a run is refused with 429.

The rules are reloaded when their files change and on SIGHUP: a version
that lints without errors is swapped in (runs under way finish on theirs;
plugins whose config did not change keep their processes), one with errors
leaves the last good rules serving and GET /v1/rules says why. What the
plugins find wrong with their config (a git source whose path is not a
repository) is printed at start, logged on reload and listed in
GET /v1/rules; the server serves anyway, and /readyz stays ready: the
questions on the other sources work.

It binds to loopback; another address needs a token ($NOUS_SERVE_TOKEN or
--token-file; --token shows it to anyone who can list processes), which
every request but /healthz and /readyz must then bear (Authorization:
Bearer TOKEN). SIGTERM or SIGINT stops accepting, lets runs finish within
--grace, cancels the rest (their partial history is kept) and stops every
plugin.`,
		Example: `  nous serve
  NOUS_SERVE_TOKEN=… nous serve --addr 0.0.0.0:7878 --log-dir ./runs
  nous serve --addr 0.0.0.0:7878 --token-file /run/secrets/nous-token
  curl -s localhost:7878/v1/ask -d '{"query":"what changed last week?","format":"text"}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.serveToken(&cfg, cmd.Flags().Changed("token"), tokenFile); err != nil {
				return err
			}
			if err := serveLimits(&cfg); err != nil {
				return err
			}
			if err := server.CheckAddr(addr, cfg.Token); err != nil {
				return usageError("serve: --addr: %v", err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			cfg.Mounts = frontEnds()
			if tf.hostPort != "" {
				d, closeDelegate, err := a.serveDelegate(ctx, &tf)
				if err != nil {
					return err
				}
				defer closeDelegate()
				cfg.Delegate = d
			}
			srv, digest, done, err := a.service(ctx, cfg)
			if err != nil {
				return err
			}
			defer done()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return usageError("serve: %v", err)
			}
			fmt.Fprintf(a.stderr, "nous: serving on %s (rules %.12s)\n", serveURL(addr, ln.Addr()), digest)
			return srv.Serve(ctx, ln)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:7878", "address to listen on (HOST:PORT); not loopback only with a token")
	f.StringVar(&cfg.Token, "token", "", "bearer token every request must bear (default $"+server.EnvToken+"; prefer it or --token-file: a flag shows in ps)")
	f.StringVar(&tokenFile, "token-file", "", "read the bearer token from this file (trimmed; at most 4 KiB)")
	f.StringVar(&cfg.LogDir, "log-dir", "", "write every run's JSON logs under this directory, as nous ask --log-dir")
	f.IntVar(&cfg.MaxRuns, "max-runs", server.DefaultMaxRuns, "runs executing at once (1 or more)")
	f.IntVar(&cfg.Queue, "queue", server.DefaultQueue, "runs waiting for a slot, beyond which requests get 429; 0 for no queue")
	f.DurationVar(&cfg.Grace, "grace", server.DefaultGrace, "on SIGTERM, how long runs may take to finish before they are cancelled")
	f.StringVar(&cfg.CORS, "cors", "", "the origin allowed cross-origin requests (default: none)")
	tf.add(f, "run the questions as durable workflows")
	return cmd
}

// service is what `nous serve` and `nous mcp` run, without a listener or
// transport: the rules linted and loaded, their plugins started and
// counted in the metrics, the rules reloaded on change and SIGHUP until
// ctx ends. digest names the rules it started with; done stops the
// reloader and every plugin.
func (a *app) service(ctx context.Context, cfg server.Config) (srv *server.Server, digest string, done func(), err error) {
	if cfg.LogDir != "" {
		if err := os.MkdirAll(cfg.LogDir, 0o755); err != nil {
			return nil, "", nil, usageError("--log-dir: %v", err)
		}
	}
	if cfg.Clock, err = a.askClock(); err != nil {
		return nil, "", nil, err
	}
	shared := plugin.NewProcesses()
	snap, err := a.snapshot(ctx, shared)
	if err != nil {
		return nil, "", nil, err
	}
	cfg.Logger = a.serveLogger(snap.Redactor)
	reloader, err := server.NewReloader(snap, server.ReloadConfig{Load: a.rulesLoader(shared), Logger: cfg.Logger,
		Observe: func(res server.ReloadResult) { srv.Metrics().Reloaded(res.OK) }})
	if err != nil {
		snap.Release()
		return nil, "", nil, err
	}
	cfg.Snapshots = reloader
	srv = server.New(cfg)
	if err := srv.Metrics().Register(newPluginMetrics(shared)); err != nil {
		_ = reloader.Close()
		return nil, "", nil, err
	}
	go reloader.Watch(ctx)
	reloadOnHangup(ctx, reloader)
	return srv, snap.Digest, func() { _ = reloader.Close() }, nil
}

// maxTokenFile bounds what --token-file reads: a token is a line.
const maxTokenFile = 4096

// serveToken sets cfg.Token from --token (given says it was), --token-file
// or $NOUS_SERVE_TOKEN, in that order; the two flags exclude each other.
// No error quotes the file's content.
func (a *app) serveToken(cfg *server.Config, given bool, file string) error {
	switch {
	case given && file != "":
		return usageError("serve: --token and --token-file: give one of them")
	case file != "":
		token, err := readTokenFile(file)
		if err != nil {
			return usageError("serve: --token-file: %v", err)
		}
		cfg.Token = token
	case cfg.Token == "":
		cfg.Token, _ = a.lookupEnv(server.EnvToken)
	}
	return nil
}

// readTokenFile is the token in file: its content, at most maxTokenFile
// bytes, trimmed of surrounding white space; an empty one is an error.
func readTokenFile(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	switch {
	case err != nil:
		return "", fmt.Errorf("reading %s: %w", file, err)
	case len(b) > maxTokenFile:
		return "", fmt.Errorf("%s is larger than %d bytes: it should hold the token alone", file, maxTokenFile)
	}
	token := strings.TrimSpace(string(b))
	switch {
	case token == "":
		return "", fmt.Errorf("%s is empty", file)
	case strings.ContainsAny(token, "\r\n"):
		return "", fmt.Errorf("%s holds more than one line: it should hold the token alone", file)
	}
	return token, nil
}

// serveLimits checks --max-runs and --queue, which say what they mean:
// --queue 0 is no queue (server.Config's zero would be the default).
func serveLimits(cfg *server.Config) error {
	switch {
	case cfg.MaxRuns < 1:
		return usageError("serve: --max-runs %d: want 1 or more runs at once", cfg.MaxRuns)
	case cfg.Queue < 0:
		return usageError("serve: --queue %d: want 0 (no queue) or more", cfg.Queue)
	case cfg.Queue == 0:
		cfg.Queue = server.NoQueue
	}
	return nil
}

// serveURL is the URL to reach the server on: the host as the user gave
// it (0.0.0.0 stays 0.0.0.0, where the listener would print [::]) and the
// port it listens on (the one picked for port 0).
func serveURL(addr string, ln net.Addr) string {
	host, _, err := net.SplitHostPort(addr)
	_, port, err2 := net.SplitHostPort(ln.String())
	if err != nil || err2 != nil {
		return "http://" + ln.String()
	}
	if host == "" {
		host = "0.0.0.0" // every interface, as Go listens for ":port"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func configuredSources(rs *rules.Ruleset) []string {
	var out []string
	for _, s := range rs.Sources {
		if s.Configured() {
			out = append(out, s.Name)
		}
	}
	return out
}

func agentNames(rs *rules.Ruleset) []string {
	var out []string
	for _, ag := range rs.Agents {
		out = append(out, ag.Name)
	}
	return out
}

// serveLogger logs the server's and the engine's events to stderr, masked,
// at $NOUS_LOG_LEVEL (info by default: a service says what it does).
func (a *app) serveLogger(red *redact.Redactor) *slog.Logger {
	level := slog.LevelInfo
	if v, ok := a.lookupEnv(envLogLevel); ok && level.UnmarshalText([]byte(v)) != nil {
		level = slog.LevelInfo
	}
	return slog.New(red.Handler(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level})))
}
