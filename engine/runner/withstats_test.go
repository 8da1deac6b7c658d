package runner

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWithStats: line statistics are asked for only when the run shows
// record fields, and only of the sources that apply with_stats.
func TestWithStats(t *testing.T) {
	commits := intentSpec{intent: "query_commits", desc: "Retrieve commit data", source: "git",
		filters: engine.Filters{{Key: "paths", Values: []string{"hclwrite/"}}}}
	issues := intentSpec{intent: "query_issues", desc: "Retrieve issue data", source: "tracker"}
	interp := &engine.Interpretation{Sources: []engine.SourceView{
		{Name: "git", Filters: []string{"paths", "with_stats"}},
		{Name: "tracker", Filters: []string{"statuses"}},
	}}
	for _, tt := range []struct {
		name      string
		withStats bool
		interp    *engine.Interpretation
		git       map[string][]string // the git request's filters
	}{
		{"shown: asked of the source that applies it", true, interp, map[string][]string{"paths": {"hclwrite/"}, "with_stats": {"true"}}},
		{"not shown: the source's configuration decides", false, interp, map[string][]string{"paths": {"hclwrite/"}}},
		{"not grounded: nothing said applies it", true, nil, map[string][]string{"paths": {"hclwrite/"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			plan := intentsPlan(t, "what changed in hclwrite and which issues are open?", tt.interp, commits, issues)
			src := sources(map[string][]sdk.Record{"git": {rec("c1", sdk.KindCommit, "Ann", 2, nil)}, "tracker": {rec("HCL-1", sdk.KindIssue, "Ann", 3, nil)}})
			_, err := New(src, standardAgents(), Options{WithStats: tt.withStats}).Run(context.Background(), plan)
			require.NoError(t, err)
			require.Len(t, src.calls, 2)
			for _, c := range src.calls {
				switch c.Source {
				case "git":
					assert.Equal(t, tt.git, c.Req.Filters)
				case "tracker":
					assert.NotContains(t, c.Req.Filters, "with_stats", "a source that does not apply it never sees it")
				}
			}
		})
	}
}

// TestWithStatsKeepsTheRequests: a request that sets with_stats keeps it,
// and the filters of one request are not shared with another source's.
func TestWithStatsKeepsTheRequests(t *testing.T) {
	r := &run{e: &Executor{opts: Options{WithStats: true}}, plan: &engine.Plan{Interpretation: &engine.Interpretation{
		Sources: []engine.SourceView{{Name: "git", Filters: []string{"with_stats"}}}}}}
	set := sdk.FetchRequest{Filters: map[string][]string{"with_stats": {"false"}}}
	assert.Equal(t, []string{"false"}, r.withStats("git", set).Filters["with_stats"])
	shared := sdk.FetchRequest{Filters: map[string][]string{"paths": {"a"}}}
	got := r.withStats("git", shared)
	assert.Equal(t, []string{"true"}, got.Filters["with_stats"])
	assert.NotContains(t, shared.Filters, "with_stats", "the caller's map is not changed")
	assert.Equal(t, map[string][]string{"with_stats": {"true"}}, r.withStats("git", sdk.FetchRequest{}).Filters)
}
