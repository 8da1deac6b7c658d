package engine

import (
	"context"
	"slices"

	"github.com/nous-dev/nous/sdk"
)

// WithStats is req asking source for line statistics when the caller
// shows record fields and req did not say: a source whose config computes
// them only for agents that read them (the default rules) still shows
// them to `nous fetch --format json` and MCP's fetch. A source that does
// not apply with_stats never sees it; one that cannot describe itself
// fails the fetch that follows.
func WithStats(ctx context.Context, d Describer, source string, req sdk.FetchRequest) sdk.FetchRequest {
	if _, given := req.Filters[sdk.FilterWithStats]; given {
		return req
	}
	info, err := d.Describe(ctx, source)
	if err != nil || !slices.Contains(info.Filters, sdk.FilterWithStats) {
		return req
	}
	return req.WithFilter(sdk.FilterWithStats, "true")
}
