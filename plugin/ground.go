package plugin

import (
	"context"
	"fmt"

	"github.com/nous-dev/nous/sdk"
)

// Ground asks the source named source which of req's terms it knows, with
// the same start, deadline, crash and redaction handling as Fetch. A
// plugin that cannot ground (its Source is no sdk.Grounder, or it was
// built before Ground existed) answers every term unknown, without error.
func (m *Manager) Ground(ctx context.Context, source string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	var resp sdk.GroundResponse
	err := m.call(ctx, KindSource, source, "Ground", func(ctx context.Context, _ *slot, p *process) (err error) {
		g, ok := p.source.(sdk.Grounder)
		if !ok { // the sdk's host client always grounds
			return fmt.Errorf("its source client has type %T, which cannot ground", p.source)
		}
		resp, err = g.Ground(ctx, req)
		return err
	})
	if err != nil {
		return sdk.GroundResponse{}, err
	}
	return resp, nil
}
