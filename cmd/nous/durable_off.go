//go:build !temporal

package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/engine/session"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// This nous is built without the Temporal SDK (the build tag temporal):
// durable runs say how to get a nous that has it. Linking the SDK costs
// every nous process, plugins included, about 10 MiB of memory and 6 ms
// of start-up, which the users who never run on Temporal should not pay.

// noTemporal is why a durable run cannot start in this build.
const noTemporal = "this nous was built without Temporal support (durable runs): install it with " +
	"`go install -tags temporal github.com/nous-dev/nous/cmd/nous@latest`, or in a checkout run `go run -tags temporal ./cmd/nous`"

func (a *app) workerCommand() *cobra.Command {
	var tf temporalFlags
	cmd := &cobra.Command{
		Use:   "worker --temporal HOST:PORT",
		Short: "Host durable runs for a Temporal service (needs a nous built with -tags temporal)",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return usageError("worker: %s", noTemporal) },
	}
	tf.add(cmd.Flags(), "host runs")
	return cmd
}

func (a *app) replayCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "replay HISTORY.json",
		Short: "Re-render a durable run's report from its Temporal history (needs a nous built with -tags temporal)",
		Args:  cobra.ExactArgs(1),
		RunE:  func(*cobra.Command, []string) error { return usageError("replay: %s", noTemporal) },
	}
}

func (a *app) askDurable(context.Context, *temporalFlags, *rules.Ruleset, *redact.Redactor, ask.Deps, ask.Request, string, bool, func(session.Turn) error) error {
	return usageError("ask: --temporal: %s", noTemporal)
}

func (a *app) serveDelegate(context.Context, *temporalFlags) (server.Delegate, func(), error) {
	return nil, nil, usageError("serve: --temporal: %s", noTemporal)
}
