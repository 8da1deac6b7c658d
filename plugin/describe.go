package plugin

import (
	"context"

	"github.com/nous-dev/nous/sdk"
)

// Describe asks the source named source what it serves, starting its
// plugin if need be, with the same deadline, crash and redaction handling
// as Fetch. A source that is not configured fails at once, saying how to
// configure it.
func (m *Manager) Describe(ctx context.Context, source string) (sdk.SourceInfo, error) {
	var info sdk.SourceInfo
	err := m.call(ctx, KindSource, source, "Describe", func(ctx context.Context, _ *slot, p *process) (err error) {
		info, err = p.source.Describe(ctx)
		return err
	})
	return info, err
}
