package engine

import (
	"context"
	"slices"

	"github.com/nous-dev/nous/sdk"
)

// Describer asks the source named source what it serves. The plugin
// package satisfies it by starting the source's plugin.
type Describer interface {
	Describe(ctx context.Context, source string) (sdk.SourceInfo, error)
}

// DescribeSources completes facts (see SourceFactsFromRules) with what the
// plugins say: the kinds each source of plan serves, or why it cannot
// serve. The other configured sources are asked only when a retrieval of
// plan may need rebinding to one of them.
func DescribeSources(ctx context.Context, d Describer, plan *Plan, facts []SourceFacts) []SourceFacts {
	out := slices.Clone(facts)
	used := map[string]bool{}
	for _, p := range plan.Retrieval.Plans {
		for _, s := range p.Sources {
			used[s] = true
		}
	}
	describe := func(i int) {
		info, err := d.Describe(ctx, out[i].Name)
		if err != nil {
			out[i].Problem = "unavailable: " + err.Error()
			return
		}
		if len(info.Kinds) > 0 {
			out[i].Kinds, out[i].Complete = slices.Clone(info.Kinds), true
		}
	}
	for i := range out {
		if used[out[i].Name] && out[i].Problem == "" {
			describe(i)
		}
	}
	if !needsRebinding(plan, out) {
		return out
	}
	for i := range out {
		if !used[out[i].Name] && out[i].Problem == "" {
			describe(i)
		}
	}
	return out
}

// needsRebinding reports whether a retrieval of plan runs on a source that
// cannot serve it.
func needsRebinding(plan *Plan, facts []SourceFacts) bool {
	for _, p := range plan.Retrieval.Plans {
		for _, name := range p.Sources {
			i := slices.IndexFunc(facts, func(f SourceFacts) bool { return f.Name == name })
			if i < 0 || !facts[i].serves(p.Kind) {
				return true
			}
		}
	}
	return false
}
