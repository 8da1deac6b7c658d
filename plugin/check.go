package plugin

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/host"
)

// CheckConfig starts a separate process for the source or agent named name,
// hands it the spec's config and returns the plugin's diagnostics, warnings
// included, so lint can show them. The process is stopped before it
// returns; the manager's running plugins are not touched. Specs sharing a
// process share the check: the plugin and config are checked once.
func (m *Manager) CheckConfig(ctx context.Context, kind Kind, name string) (sdk.Diagnostics, error) {
	s, err := m.slot(kind, name)
	if err != nil {
		return nil, err
	}
	if err := s.notConfigured(); err != nil {
		return nil, err
	}
	pl := s.pool
	if err := pl.acquire(ctx, s.who); err != nil {
		return nil, err
	}
	defer pl.release()
	if pl.checked == nil {
		diags, err := m.checkConfig(ctx, s)
		if err != nil {
			return nil, err // in the words of this spec; another tries again
		}
		pl.checked = &diags
	}
	return slices.Clone(*pl.checked), nil
}

// checkConfig is CheckConfig's check, in a process of its own.
func (m *Manager) checkConfig(ctx context.Context, s *slot) (sdk.Diagnostics, error) {
	kind := s.spec.Kind
	ctx, cancel := context.WithTimeout(ctx, m.startTimeout)
	defer cancel()
	defer context.AfterFunc(m.ctx, cancel)() // Close waits for the pool's lock: end the check
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
