package template

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/nous-dev/nous/sdk"
)

// TestDraftCountsTheWholeSet: when the engine sends only the newest
// records, every count a draft writes is the whole set's (authors, kinds,
// records in the period) or says it is of the listed sample.
func TestDraftCountsTheWholeSet(t *testing.T) {
	records := manyRecords(12) // dev0..dev4, 4 of each kind, projects acme/p0..p3
	whole := &sdk.Evidence{Total: 5000, Shown: 12,
		Kinds:    map[string]int{sdk.KindCommit: 4000, sdk.KindIssue: 600, sdk.KindMergeRequest: 400},
		Authors:  map[string]int{"dev0": 3, "dev1": 3, "dev2": 2, "dev3": 2, "dev4": 2, "g": 4988},
		Earliest: time.Date(2019, 3, 4, 0, 0, 0, 0, time.UTC), Latest: time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)}
	recent := &sdk.TimeRange{Since: day0.Add(-time.Hour), Until: day0.Add(6 * time.Hour)}
	all := &sdk.TimeRange{Since: time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, tt := range []struct {
		name      string
		whole     *sdk.Evidence
		period    *sdk.TimeRange
		contains  []string
		absent    []string
		reasoning []string
	}{
		{
			name: "authors and kinds of the whole set", whole: whole,
			reasoning: []string{"Grouped the evidence by kind: 4000 commit, 600 issue, 400 merge_request.", "Tallied 6 authors and 4 projects in the newest 12 records."},
			contains: []string{
				"- Top authors: g (4988), dev0 (3), dev1 (3), dev2 (2), dev3 (2)\n",
				"### Commits (4000)", "### Issues (600)", "### Merge requests (400)",
				"- … and 3996 more\n", "- … and 596 more\n",
				"- Projects in the newest 12 records: acme/p0 (3), ",
			},
			absent: []string{"Top authors: dev0", "### Commits (4)", "- Projects: "},
		},
		{
			name: "period spanning the whole set", whole: whole, period: all,
			contains: []string{"(5000 of 5000 records fall in it)"},
		},
		{
			name: "period cutting the whole set", whole: whole, period: recent,
			contains: []string{"(6 of the newest 12 records fall in it)"},
		},
		{
			name:      "every record shown",
			reasoning: []string{"Grouped the evidence by kind: 4 commit, 4 issue, 4 merge_request.", "Tallied 5 authors and 4 projects."},
			contains: []string{
				"- Top authors: dev0 (3), dev1 (3), dev2 (2), dev3 (2), dev4 (2)\n",
				"### Commits (4)", "- Projects: acme/p0 (3), ",
			},
			absent: []string{"more\n", "newest"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var draft sdk.AnalystOutput
			invoke(t, New(), sdk.RoleAnalyst, sdk.AnalystInput{Query: "what changed?", Mode: "discovery", Temporal: tt.period, Evidence: tt.whole}, records, &draft)
			for _, s := range tt.contains {
				assert.Contains(t, draft.Draft, s)
			}
			for _, s := range tt.absent {
				assert.NotContains(t, draft.Draft, s)
			}
			for _, s := range tt.reasoning {
				assert.Contains(t, draft.ReasoningChain, s)
			}
		})
	}
}
