package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes of the CLI contract.
const (
	exitOK       = 0
	exitFindings = 1 // findings, failed tests, failed run
	exitUsage    = 2 // usage or unreadable input
	exitClarify  = 3 // nous ask: the question is ambiguous and was asked back (needs_clarification)
)

// exitError carries an exit code out of a command. A nil Err means the
// command already reported what went wrong.
type exitError struct {
	Code int
	Err  error
}

func (e *exitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *exitError) Unwrap() error { return e.Err }

// usageError returns an error that exits 2 with a message.
func usageError(format string, args ...any) error {
	return &exitError{Code: exitUsage, Err: fmt.Errorf(format, args...)}
}

// findings returns an error that exits 1 without a further message.
func findings() error { return &exitError{Code: exitFindings} }

// app holds the CLI's I/O and global flags; commands hang off it.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	environ        func() []string // the environment swept for secret-named variables; nil: none

	rulesPath  string
	pluginDirs []string
}

func (a *app) execute(args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(a.stderr, "nous: internal error (a bug, please report it): %v\n%s", r, debug.Stack())
			code = exitUsage
		}
	}()
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			// Errors may quote what a remote service sent.
			fmt.Fprintf(terminalSafe{a.stderr}, "nous: %v\n", ee.Err)
		}
		return ee.Code
	}
	// Anything else out of cobra is a flag or argument problem: one line
	// naming the command and how it is used.
	if cmd == nil || cmd == root {
		fmt.Fprintf(a.stderr, "nous: %s\n", oneLine(err.Error()))
	} else {
		fmt.Fprintf(a.stderr, "%s: %s (usage: %s)\n", cmd.CommandPath(), oneLine(err.Error()), cmd.UseLine())
	}
	return exitUsage
}

// oneLine joins a multi-line message (cobra's "Did you mean this?"
// suggestions) into one line.
func oneLine(msg string) string {
	var parts []string
	for line := range strings.Lines(msg) {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, " ")
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "nous",
		Short:         "Reasoning plans over your software project's data",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&a.rulesPath, "rules", "", "rules file or directory (default ./nous.hcl, ./.nous/*.hcl, else the embedded defaults)")
	root.PersistentFlags().StringArrayVar(&a.pluginDirs, "plugin-dir", nil, "directory to search for nous-plugin-NAME binaries (repeatable)")
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return a.checkPluginDirs() }
	root.AddCommand(
		a.planCommand(),
		a.lintCommand(),
		a.fmtCommand(),
		a.testCommand(),
		a.pluginsCommand(),
		a.pluginServeCommand(),
		a.fetchCommand(),
		a.askCommand(),
		a.sessionsCommand(),
		a.serveCommand(),
		a.mcpCommand(),
		a.workerCommand(),
		a.replayCommand(),
	)
	return root
}

// checkPluginDirs refuses a --plugin-dir that is not a directory: a typo
// there would otherwise surface only as "no plugin" much later.
func (a *app) checkPluginDirs() error {
	for _, d := range a.pluginDirs {
		info, err := os.Stat(d)
		switch {
		case err != nil:
			return usageError("--plugin-dir: %v", err)
		case !info.IsDir():
			return usageError("--plugin-dir %s: not a directory", d)
		}
	}
	return nil
}
