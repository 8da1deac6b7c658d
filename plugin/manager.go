// Package plugin is the host side of nous plugins: discovery, launch over
// hashicorp/go-plugin, handshake, checksums, deadlines, restart and shutdown.
// It hands the engine plain Go interfaces (engine.Sources, engine.Agents).
package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/nous-dev/nous/sdk"
)

// Kind is what a plugin serves.
type Kind int

// Plugin kinds.
const (
	KindSource Kind = iota + 1
	KindAgent
)

// Spec declares one logical source or agent and the plugin that serves it.
type Spec struct {
	Name    string // logical name from the rules ("gitlab", "writer")
	Kind    Kind
	Ref     string          // "builtin:NAME", a plugin name (nous-plugin-NAME), or a path
	SHA256  string          // optional pin, checked before the binary runs
	Config  json.RawMessage // passed to Configure on start
	Timeout time.Duration   // per-call deadline when the caller's context has none
}

// Options configure a Manager.
type Options struct {
	Dirs       []string     // extra plugin directories, searched first
	Executable string       // the nous binary that serves builtin: plugins; default os.Executable()
	Logger     hclog.Logger // plugin logs are re-emitted under the plugin's name
	Secrets    []string     // strings redacted from every error and log line
}

// Manager runs plugin subprocesses on demand. It is safe for concurrent use.
// TODO(plugin host owner): replace this stub.
type Manager struct{}

// NewManager returns a manager for specs. Plugins start on first use.
func NewManager(opts Options, specs ...Spec) (*Manager, error) {
	return &Manager{}, nil
}

// Fetch runs Fetch on the source named source.
func (m *Manager) Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	return errors.New("plugin: not implemented")
}

// Invoke runs Invoke on the agent named agent.
func (m *Manager) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	return sdk.InvokeResponse{}, errors.New("plugin: not implemented")
}

// Close stops every plugin process.
func (m *Manager) Close() error { return nil }
