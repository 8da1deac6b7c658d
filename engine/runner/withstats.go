package runner

import (
	"slices"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
)

// withStats adds with_stats=true to req when the run shows record fields
// (Options.WithStats) and src said, grounding, that it applies the filter:
// other sources never see it. A request that sets it already keeps it.
func (r *run) withStats(src string, req sdk.FetchRequest) sdk.FetchRequest {
	if !r.e.opts.WithStats || req.Filters[sdk.FilterWithStats] != nil || !r.applies(src, sdk.FilterWithStats) {
		return req
	}
	return req.WithFilter(sdk.FilterWithStats, "true")
}

// applies reports whether src listed filter among the filters it applies
// when the question was grounded.
func (r *run) applies(src, filter string) bool {
	in := r.plan.Interpretation
	if in == nil {
		return false
	}
	i := slices.IndexFunc(in.Sources, func(v engine.SourceView) bool { return v.Name == src })
	return i >= 0 && slices.Contains(in.Sources[i].Filters, filter)
}
