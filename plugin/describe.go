package plugin

import (
	"context"
	"slices"

	"github.com/nous-dev/nous/sdk"
)

// Describe asks the source named source what it serves, starting its
// plugin if need be, with the same deadline, crash and redaction handling
// as Fetch. A source that is not configured fails at once, saying how to
// configure it. The plugin is asked once per process: a later call (every
// question asks) answers as the first did, without a round trip.
func (m *Manager) Describe(ctx context.Context, source string) (sdk.SourceInfo, error) {
	var info sdk.SourceInfo
	err := m.call(ctx, KindSource, source, "Describe", func(ctx context.Context, _ *slot, p *process) (err error) {
		if kept, ok := p.keptDescription(); ok {
			info = kept
			return nil
		}
		if info, err = p.source.Describe(ctx); err == nil {
			p.keepDescription(info)
		}
		return err
	})
	return info, err
}

// keptDescription is a copy of the Describe answer kept, if any.
func (p *process) keptDescription() (sdk.SourceInfo, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.described == nil {
		return sdk.SourceInfo{}, false
	}
	return cloneInfo(*p.described), true
}

// keepDescription keeps a copy of info, the source's Describe answer.
func (p *process) keepDescription(info sdk.SourceInfo) {
	c := cloneInfo(info)
	p.mu.Lock()
	p.described = &c
	p.mu.Unlock()
}

// cloneInfo copies info's slices, so no caller changes another's.
func cloneInfo(info sdk.SourceInfo) sdk.SourceInfo {
	info.Kinds = slices.Clone(info.Kinds)
	info.Filters = slices.Clone(info.Filters)
	info.ConfigSchema = slices.Clone(info.ConfigSchema)
	return info
}
