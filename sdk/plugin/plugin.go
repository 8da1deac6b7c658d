// Package plugin is what a nous plugin's main calls. Serve runs an
// sdk.Source, an sdk.Agent or both as a plugin process of the nous host:
//
//	func main() { plugin.Serve(plugin.Config{Source: mysource.New()}) }
package plugin

import (
	"fmt"
	"os"

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
	host2plugin.Serve(c.Source, c.Agent, c.Logger)
}
