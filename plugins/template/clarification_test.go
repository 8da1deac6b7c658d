package template

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nous-dev/nous/sdk"
)

func TestClarification(t *testing.T) {
	records := fixtureRecords()
	tests := []struct {
		name, ambiguity string
		records         []sdk.Record
		wantQuestion    string
		wantOptions     []string
	}{
		{"project from records", "project", records, "Which project do you mean?", []string{"acme/payments", "acme/infra", "All projects"}},
		{"project without records", "which_project", nil, "Which project do you mean?", []string{"All projects"}},
		{"time range", "time_range", records, "Which time range do you mean?",
			[]string{"The period of the records found: 2026-11-02 – 2026-11-04", "Last 7 days", "Last 30 days", "Last 90 days", "All time"}},
		{"time range without records", "temporal period", nil, "Which time range do you mean?", []string{"Last 7 days", "Last 30 days", "Last 90 days", "All time"}},
		{"author", "author", records, "Whose work do you mean?", []string{"alice", "bob", "carol", "someone", "Everyone"}},
		{"anything else from records", "scope", records, `What should the answer to "is it healthy?" focus on?`,
			[]string{"Commits (3)", "Issues (1)", "Merge requests (1)", "Documents (2)", "Everything"}},
		{"anything else without records", "", nil, `What should the answer to "is it healthy?" focus on?`,
			[]string{"Recent changes (commits and merge requests)", "Open issues", "Overall status", "Everything"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out sdk.ClarificationOutput
			invoke(t, New(), sdk.RoleClarification, sdk.ClarificationInput{Query: "is it healthy?", AmbiguityType: tt.ambiguity}, tt.records, &out)
			assert.Equal(t, tt.wantQuestion, out.Question)
			assert.Equal(t, tt.wantOptions, out.Options)
		})
	}
}
