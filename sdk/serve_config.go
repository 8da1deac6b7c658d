package sdk

import "github.com/hashicorp/go-hclog"

// ServeConfig names what a plugin binary serves: a Source, an Agent, or both.
type ServeConfig struct {
	Source Source // nil when the plugin serves no source
	Agent  Agent  // nil when the plugin serves no agent
	// Logger receives the plugin's own logs and panics; nil means JSON
	// lines on stderr, which the host re-emits under the plugin's name.
	Logger hclog.Logger
}
