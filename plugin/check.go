package plugin

import (
	"context"
	"errors"
	"fmt"

	"github.com/nous-dev/nous/sdk"
)

// CheckConfig starts a separate process for the source or agent named name,
// hands it the spec's config and returns the plugin's diagnostics, warnings
// included, so lint can show them. The process is stopped before it
// returns; the manager's running plugins are not touched.
func (m *Manager) CheckConfig(ctx context.Context, kind Kind, name string) (sdk.Diagnostics, error) {
	s, err := m.slot(kind, name)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, m.startTimeout)
	defer cancel()
	l, err := m.resolver.resolve(s.spec.Ref)
	if err != nil {
		return nil, m.redact.Error(fmt.Errorf("%s %s: %w", kind, name, err))
	}
	if _, err := verifyPin(l.Path, s.spec.SHA256); err != nil {
		return nil, m.redact.Error(fmt.Errorf("plugin %s: %w", s.who, err))
	}
	p, err := startProcess(ctx, startConfig{
		who:          s.who,
		launch:       l,
		logger:       m.logger.Named(name),
		redact:       m.redact,
		startTimeout: m.startTimeout,
	})
	if err != nil {
		return nil, err
	}
	defer p.end(false)
	if err := p.dispense(kind); err != nil {
		return nil, m.redact.Error(err)
	}
	var diags sdk.Diagnostics
	if kind == KindSource {
		diags, err = p.source.Configure(ctx, s.config())
	} else {
		diags, err = p.agent.Configure(ctx, s.config())
	}
	if errors.Is(err, sdk.ErrNotServed) {
		return nil, fmt.Errorf("plugin %s does not serve %s, but the rules use it as %s %q", s.who, kind.article(), kind, name)
	}
	if err != nil {
		return nil, m.redact.Error(fmt.Errorf("plugin %s: Configure: %w", s.who, err))
	}
	for i := range diags {
		diags[i].Summary = m.redact.String(diags[i].Summary)
		diags[i].Detail = m.redact.String(diags[i].Detail)
	}
	return diags, nil
}
