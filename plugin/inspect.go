package plugin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/host"
)

// Found is an external plugin binary in the search path.
type Found struct {
	Name string // NAME of nous-plugin-NAME
	Path string
}

// Info describes one plugin, what `nous plugins` lists.
type Info struct {
	Name     string          `json:"name"`
	Ref      string          `json:"ref"`
	Path     string          `json:"path,omitempty"`
	Builtin  bool            `json:"builtin"`
	Source   *sdk.SourceInfo `json:"source,omitempty"` // nil when it serves no source
	Agent    *sdk.AgentInfo  `json:"agent,omitempty"`  // nil when it serves no agent
	Checksum ChecksumState   `json:"checksum"`
	SHA256   string          `json:"sha256,omitempty"` // the binary's digest, when pinned
	Trust    TrustState      `json:"trust,omitempty"`  // for a project's own binaries
	Error    string          `json:"error,omitempty"`  // why it could not be described
}

// TrustState says whether a project's plugin binary may run.
type TrustState string

// Trust states; binaries that are not the project's have none.
const (
	TrustTrusted   TrustState = "trusted"   // trusted by the user, pinned by their rules, or allowed for CI
	TrustUntrusted TrustState = "untrusted" // listed, never run: `nous plugins trust` allows it
)

// Version is the plugin's own version, from whichever service it serves.
func (i Info) Version() string {
	if i.Source != nil && i.Source.Version != "" {
		return i.Source.Version
	}
	if i.Agent != nil {
		return i.Agent.Version
	}
	return ""
}

// SearchPath is where the manager looks for nous-plugin-NAME binaries.
func (m *Manager) SearchPath() []string { return m.resolver.dirs }

// Discover lists the external plugins in the search path. As with $PATH,
// the first directory holding a name wins.
func (m *Manager) Discover() []Found {
	var found []Found
	seen := map[string]bool{}
	for _, dir := range m.resolver.dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // a missing directory holds no plugins
		}
		for _, e := range entries {
			name, ok := strings.CutPrefix(e.Name(), BinaryPrefix)
			if !ok || name == "" || seen[name] || e.IsDir() {
				continue
			}
			path := filepath.Join(dir, e.Name())
			if checkExecutable(path) != nil {
				continue
			}
			seen[name] = true
			found = append(found, Found{Name: name, Path: path})
		}
	}
	return found
}

// Inspect starts the plugin behind ref, asks what it serves, and stops it.
// A binary that does not match pin is described as such and never runs.
// Problems are reported in Info.Error, not returned.
func (m *Manager) Inspect(ctx context.Context, ref, pin string) Info {
	return m.InspectSpec(ctx, Spec{Ref: ref, SHA256: pin})
}

// InspectSpec is Inspect for the reference, pin and provenance of spec. A
// binary that may not run (a pin mismatch, loose permissions, a project
// binary not trusted) is described as such and never runs.
func (m *Manager) InspectSpec(ctx context.Context, spec Spec) Info {
	ref := spec.Ref
	info := Info{Name: refName(ref), Ref: ref, Builtin: strings.HasPrefix(ref, builtinPrefix), Checksum: ChecksumUnpinned}
	prep, err := m.prepare(spec)
	if prep != nil {
		info.Path, info.Builtin = prep.launch.Path, prep.launch.Builtin
		info.Checksum = prep.checksum
		if spec.SHA256 != "" {
			info.SHA256 = prep.digest
		}
		if m.projectLocal(spec, prep.launch) {
			info.Trust = TrustTrusted
			var ue *UntrustedError
			if errors.As(err, &ue) {
				info.Trust = TrustUntrusted
			}
		}
	}
	if err != nil {
		info.Error = m.redact.String(err.Error())
		return info
	}
	ctx, cancel := context.WithTimeout(ctx, m.startTimeout)
	defer cancel()
	who := info.Name + " (" + ref + ")"
	p, err := startProcess(ctx, startConfig{
		who:          who,
		launch:       prep.launch,
		sealed:       prep.sealed,
		logger:       m.logger.Named(info.Name),
		redact:       m.redact,
		startTimeout: m.startTimeout,
	})
	if err != nil {
		prep.release()
		info.Error = m.redact.String(err.Error())
		return info
	}
	defer p.end(false)
	info.Source, info.Agent, err = describe(ctx, p)
	if err != nil {
		info.Error = m.redact.String(err.Error())
	}
	return info
}

// describe asks a process for both services' descriptions; a service it
// does not serve stays nil.
func describe(ctx context.Context, p *process) (*sdk.SourceInfo, *sdk.AgentInfo, error) {
	var src *sdk.SourceInfo
	var agent *sdk.AgentInfo
	var errs []error
	if err := p.dispense(KindSource); err != nil {
		errs = append(errs, err)
	} else if si, err := p.source.Describe(ctx); err == nil {
		src = &si
	} else if !errors.Is(err, host.ErrNotServed) {
		errs = append(errs, err)
	}
	if err := p.dispense(KindAgent); err != nil {
		errs = append(errs, err)
	} else if ai, err := p.agent.Describe(ctx); err == nil {
		agent = &ai
	} else if !errors.Is(err, host.ErrNotServed) {
		errs = append(errs, err)
	}
	if src == nil && agent == nil && len(errs) == 0 {
		errs = append(errs, errors.New("it serves neither a source nor an agent"))
	}
	return src, agent, errors.Join(errs...)
}

// refName is the plugin name a reference points at: gitlab for
// builtin:gitlab, gitlab, and ./bin/nous-plugin-gitlab.
func refName(ref string) string {
	if name, ok := strings.CutPrefix(ref, builtinPrefix); ok {
		return name
	}
	base := filepath.Base(ref)
	if name, ok := strings.CutPrefix(base, BinaryPrefix); ok {
		return name
	}
	return base
}
