package plugin

import (
	"context"
	"errors"
	"fmt"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/host"
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
	if err := s.notConfigured(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, m.startTimeout)
	defer cancel()
	p, err := m.launch(ctx, s)
	if err != nil {
		return nil, err
	}
	defer p.end(false)
	if err := p.dispense(kind); err != nil {
		return nil, m.redact.Error(err)
	}
	diags, err := callConfigure(ctx, s, p)
	if errors.Is(err, host.ErrNotServed) {
		return nil, s.notServed()
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
