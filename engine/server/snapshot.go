package server

import (
	"maps"
	"slices"
	"time"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk/redact"
)

// Snapshot is one loaded ruleset with the plugins built for it.
type Snapshot struct {
	Rules    *rules.Ruleset
	Plugins  ask.Plugins // warm: shared by every run on this snapshot
	Redactor *redact.Redactor
	Digest   string // sha256 over the rules files' bytes and names relative to their directory, hex
	Files    []string
	// Watch are the rules files and directories whose changes reload the
	// rules while this snapshot is current (none for rules that are not
	// files, as the embedded defaults); a Reloader follows them.
	Watch []string
	// Sources and Agents are what their plugins found wrong with their
	// config when the rules were loaded (a git source's path that is no
	// repository): the rules serve, but the questions on them fail.
	Sources  []PluginStatus
	Agents   []PluginStatus
	LoadedAt time.Time
	Release  func() // called once when no run uses it any more (closes its plugin manager); may be nil
}

// NewSnapshot is the snapshot of rs served with plugins: its files, their
// digest and the load time are taken from rs and the clock.
func NewSnapshot(rs *rules.Ruleset, plugins ask.Plugins, red *redact.Redactor, release func()) *Snapshot {
	names := slices.Sorted(maps.Keys(rs.Files()))
	return &Snapshot{Rules: rs, Plugins: plugins, Redactor: red, Digest: rs.Digest(),
		Files: names, LoadedAt: time.Now().UTC(), Release: release}
}

// Snapshots gives the snapshot new runs start on; a run holds it (Acquire) until it ends.
type Snapshots interface {
	Acquire() (*Snapshot, func()) // the current snapshot and its release
	Status() RulesStatus          // what GET /v1/rules shows
}

// RulesStatus is what is loaded: GET /v1/rules.
type RulesStatus struct {
	Files      []string       `json:"files"`
	Digest     string         `json:"digest"`
	LoadedAt   time.Time      `json:"loaded_at"`
	Sources    []PluginStatus `json:"sources"`
	Agents     []PluginStatus `json:"agents"`
	LastReload *ReloadResult  `json:"last_reload,omitempty"`
}

// PluginStatus is a source or agent of the rules served, its plugin, and
// what the plugin found wrong with its config when the rules were loaded.
type PluginStatus struct {
	Name        string       `json:"name"`
	Plugin      string       `json:"plugin"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// statusOf is what GET /v1/rules shows of s, with last.
func statusOf(s *Snapshot, last *ReloadResult) RulesStatus {
	return RulesStatus{Files: s.Files, Digest: s.Digest, LoadedAt: s.LoadedAt, Sources: nonNil(s.Sources), Agents: nonNil(s.Agents),
		LastReload: last}
}

// nonNil is ps, an empty list rather than null in JSON.
func nonNil(ps []PluginStatus) []PluginStatus {
	if ps == nil {
		return []PluginStatus{}
	}
	return ps
}

// Problems are what the plugins of every source and agent found wrong with
// their config; each summary names its block.
func (s *Snapshot) Problems() []Diagnostic {
	var out []Diagnostic
	for _, p := range slices.Concat(s.Sources, s.Agents) {
		out = append(out, p.Diagnostics...)
	}
	return out
}

// ReloadResult is the outcome of one reload of the rules.
type ReloadResult struct {
	At          time.Time    `json:"at"`
	OK          bool         `json:"ok"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Diagnostic is one problem a reload found in the rules.
type Diagnostic struct {
	Range    string `json:"range,omitempty"` // file:line:col
	Severity string `json:"severity"`        // error | warning
	Summary  string `json:"summary"`
	Detail   string `json:"detail,omitempty"`
}

// Static serves one snapshot for the life of the server: no reload. The
// caller releases it after the server has stopped.
func Static(s *Snapshot) Snapshots { return static{s} }

type static struct{ snap *Snapshot }

func (s static) Acquire() (*Snapshot, func()) { return s.snap, func() {} }

func (s static) Status() RulesStatus { return statusOf(s.snap, nil) }
