package main

import (
	"context"
	"slices"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
)

// fetchStats asks source for line statistics when the fetch's output shows
// record fields (JSON) and the flags did not say: a source whose config
// computes them only for agents that read them (the default rules) still
// shows them here. A source that does not apply with_stats never sees it;
// one that cannot describe itself fails the fetch that follows.
func fetchStats(ctx context.Context, d engine.Describer, source string, req sdk.FetchRequest) sdk.FetchRequest {
	if _, given := req.Filters[sdk.FilterWithStats]; given {
		return req
	}
	info, err := d.Describe(ctx, source)
	if err != nil || !slices.Contains(info.Filters, sdk.FilterWithStats) {
		return req
	}
	return req.WithFilter(sdk.FilterWithStats, "true")
}
