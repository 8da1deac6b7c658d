package server

import (
	"crypto/sha256"
	"encoding/hex"
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
	Digest   string // sha256 over the rules files' bytes, hex
	Files    []string
	LoadedAt time.Time
	Release  func() // called once when no run uses it any more (closes its plugin manager); may be nil
}

// NewSnapshot is the snapshot of rs served with plugins: its files, their
// digest and the load time are taken from rs and the clock.
func NewSnapshot(rs *rules.Ruleset, plugins ask.Plugins, red *redact.Redactor, release func()) *Snapshot {
	files := rs.Files()
	names := slices.Sorted(maps.Keys(files))
	h := sha256.New()
	for _, name := range names {
		// The name is part of the digest: a file renamed is another ruleset.
		h.Write([]byte(name))
		h.Write([]byte{0})
		if f := files[name]; f != nil {
			h.Write(f.Bytes)
		}
		h.Write([]byte{0})
	}
	return &Snapshot{Rules: rs, Plugins: plugins, Redactor: red, Digest: hex.EncodeToString(h.Sum(nil)),
		Files: names, LoadedAt: time.Now().UTC(), Release: release}
}

// Snapshots gives the snapshot new runs start on; a run holds it (Acquire) until it ends.
type Snapshots interface {
	Acquire() (*Snapshot, func()) // the current snapshot and its release
	Status() RulesStatus          // what GET /v1/rules shows
}

// RulesStatus is what is loaded: GET /v1/rules.
type RulesStatus struct {
	Files      []string      `json:"files"`
	Digest     string        `json:"digest"`
	LoadedAt   time.Time     `json:"loaded_at"`
	LastReload *ReloadResult `json:"last_reload,omitempty"`
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

func (s static) Status() RulesStatus {
	return RulesStatus{Files: s.snap.Files, Digest: s.snap.Digest, LoadedAt: s.snap.LoadedAt}
}
