package runner

import (
	"maps"
	"slices"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
)

// withStatsFilter asks a source for the records' line statistics, which
// the git and GitLab sources compute at a cost and no report shows.
const withStatsFilter = "with_stats"

// withStats adds with_stats=true to req when the run shows record fields
// (Options.WithStats) and src said, grounding, that it applies the filter:
// other sources never see it. A request that sets it already keeps it.
func (r *run) withStats(src string, req sdk.FetchRequest) sdk.FetchRequest {
	if !r.e.opts.WithStats || req.Filters[withStatsFilter] != nil || !r.applies(src, withStatsFilter) {
		return req
	}
	filters := make(map[string][]string, len(req.Filters)+1)
	maps.Copy(filters, req.Filters)
	filters[withStatsFilter] = []string{"true"}
	req.Filters = filters
	return req
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
