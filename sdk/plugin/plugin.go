// Package plugin is what a nous plugin's main calls. Serve runs an
// sdk.Source, an sdk.Agent or both as a plugin process of the nous host:
//
//	func main() { plugin.Serve(plugin.Config{Source: mysource.New()}) }
package plugin

import (
	"fmt"
	"os"
	"runtime"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/host2plugin"
)

// Config names what a plugin binary serves: a Source, an Agent, or both.
type Config struct {
	Source sdk.Source // nil when the plugin serves no source
	Agent  sdk.Agent  // nil when the plugin serves no agent
	// Logger receives the plugin's own logs and panics; nil means JSON
	// lines on stderr, which the host re-emits under the plugin's name.
	Logger hclog.Logger
	// MaxProcs, when positive, is how many threads may run the plugin's Go
	// code at once (runtime.GOMAXPROCS), unless the GOMAXPROCS variable
	// says otherwise; 0 keeps Go's default, one per CPU. A plugin that does
	// little work per call, or mostly waits for the network, spends a
	// quarter to a third less CPU on each call with 1: the handoffs between
	// gRPC's goroutines within a call then wake no second thread. A plugin
	// that computes in parallel keeps 0.
	MaxProcs int
}

// Serve runs the plugin: it answers the host's handshake and serves c's
// Source and/or Agent over gRPC until the host stops it. It does not
// return. Started by hand rather than by nous, or with a Config that names
// nothing to serve, it prints a short explanation and exits with status 1.
func Serve(c Config) {
	if c.Source == nil && c.Agent == nil {
		fmt.Fprintln(os.Stderr, "plugin.Serve: the Config names neither a Source nor an Agent")
		os.Exit(1)
	}
	if c.MaxProcs < 0 {
		fmt.Fprintf(os.Stderr, "plugin.Serve: the Config's MaxProcs is %d; it must be 0 (Go's default) or more\n", c.MaxProcs)
		os.Exit(1)
	}
	maxProcs(c.MaxProcs, os.Getenv)
	host2plugin.Serve(c.Source, c.Agent, c.Logger)
}

// maxProcs sets GOMAXPROCS to n when n is positive and the GOMAXPROCS
// variable, which the runtime applied itself, is unset.
func maxProcs(n int, getenv func(string) string) {
	if n > 0 && getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(n)
	}
}
