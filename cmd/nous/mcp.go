package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nous-dev/nous/engine/mcptools"
	"github.com/nous-dev/nous/engine/server"
	"github.com/spf13/cobra"
)

// mcpCommand is `nous mcp`: the MCP tools over stdio, for assistants that
// launch nous themselves.
func (a *app) mcpCommand() *cobra.Command {
	cfg := server.Config{}
	var dir string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the MCP tools ask, plan, fetch and lint over stdio, for assistants that launch nous",
		Long: `Speak the Model Context Protocol on stdin and stdout, for an assistant (Claude
Desktop, Cursor, an IDE agent) that starts nous as a tool server. The tools:
ask (a question answered as 'nous ask' answers it, with progress notifications
and cancellation), plan (as 'nous plan'), fetch (as 'nous fetch') and lint (rules
given as text, as 'nous lint').

The rules and plugins are loaded once, as 'nous serve' loads them, and reloaded
when their files change or on SIGHUP. Run it in the repository to ask about
(the git source reads the working directory), or name it with --dir: assistants
launch their tools from a directory of their own. Logs go to stderr: stdout is
the protocol. It ends when the client closes stdin, or on SIGTERM or SIGINT.

'nous serve' offers the same tools over HTTP at /mcp.`,
		Example: `  nous mcp
  nous mcp --dir ~/src/payments --log-dir ./runs
  # an MCP client's configuration (Claude Desktop, Cursor, VS Code…):
  #   {"mcpServers": {"nous": {"command": "nous", "args": ["mcp", "--dir", "/path/to/repo"]}}}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// As git -C: everything relative (the rules, ./.nous, the git
			// source's path, --log-dir) is read from dir.
			if dir != "" {
				if err := os.Chdir(dir); err != nil {
					return usageError("mcp: --dir: %v", err)
				}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := serveLimits(&cfg); err != nil {
				return err
			}
			srv, _, done, err := a.service(ctx, cfg)
			if err != nil {
				return err
			}
			defer done()
			fmt.Fprintln(a.stderr, "nous: serving MCP on stdio")
			tools := mcptools.New(srv, mcptools.Options{Version: version()})
			err = tools.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(a.stdin), Writer: nopCloser{a.stdout}})
			if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("mcp: %w", err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&dir, "dir", "C", "", "work in this directory, as if nous were started there (the repository to ask about)")
	f.StringVar(&cfg.LogDir, "log-dir", "", "write every run's JSON logs under this directory, as nous ask --log-dir")
	f.IntVar(&cfg.MaxRuns, "max-runs", server.DefaultMaxRuns, "runs executing at once (1 or more)")
	f.IntVar(&cfg.Queue, "queue", server.DefaultQueue, "runs waiting for a slot, beyond which ask answers busy; 0 for no queue")
	return cmd
}

// version is nous's module version, "(devel)" for a build from a work tree.
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		return info.Main.Version
	}
	return "(devel)"
}

// nopCloser is stdout as the transport writes it: closing the session
// leaves the process's stdout open.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
