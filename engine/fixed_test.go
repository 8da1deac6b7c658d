package engine_test

import (
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/stretchr/testify/assert"
)

// The status intent's filters are fixed by the document: a question naming
// other values keeps them, and the plan says which of its values it did not apply.
func TestFixedFiltersAreNotOverridden(t *testing.T) {
	openIssues := planView{"plan1", "Retrieve open issues for health status", []string{"youtrack"},
		map[string][]string{"statuses": {"open", "in-progress"}}, 8, "Retrieve open issues for health status statuses:open,in-progress"}
	recentCommits := planView{"plan0", "Retrieve recent commits for activity status", []string{"gitlab"},
		map[string][]string{"dates": {"last week"}}, 8, "Retrieve recent commits for activity status dates:last week"}
	status := []engine.Intent{{Type: "query_status", Confidence: 0.9}}
	for _, tc := range []struct {
		name     string
		entities map[string][]string
		notes    []string
	}{
		{"no entities", map[string][]string{}, nil},
		{"the fixed values themselves", map[string][]string{"statuses": {"open", "in-progress"}, "dates": {"last week"}}, nil},
		{"closed", map[string][]string{"statuses": {"closed"}}, []string{
			`retrieve "open_issues" keeps statuses:open,in-progress fixed; the question's statuses:closed was not applied`}},
		{"closed last month", map[string][]string{"statuses": {"closed"}, "dates": {"last month"}}, []string{
			`retrieve "recent_commits" keeps dates:last week fixed; the question's dates:last month was not applied`,
			`retrieve "open_issues" keeps statuses:open,in-progress fixed; the question's statuses:closed was not applied`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := plan(t, defaultPlanner(t), engine.Request{Intents: status, Entities: tc.entities})
			assert.Equal(t, []planView{recentCommits, openIssues}, plans(got))
			var notes []string
			for _, d := range got.Diagnostics {
				if d.Code == "fixed_filter" {
					assert.Equal(t, engine.SeverityInfo, d.Severity)
					notes = append(notes, d.Message)
				}
			}
			assert.Equal(t, tc.notes, notes)
		})
	}
}

// A question's words reach the plan the same way: "closed" is extracted and not applied.
func TestFixedFiltersFromAQuestion(t *testing.T) {
	got := plan(t, defaultPlanner(t), engine.Request{Query: "what is the status of the closed issues?"})
	assert.Equal(t, []string{"closed"}, got.Reasoning.Entities["statuses"])
	var filters []engine.Filter
	for _, pl := range got.Retrieval.Plans {
		if pl.Intent == "query_status" {
			filters = append(filters, pl.Filters...)
		}
	}
	assert.Equal(t, []engine.Filter{{Key: "dates", Values: []string{"last week"}}, {Key: "statuses", Values: []string{"open", "in-progress"}}}, filters)
	assert.Contains(t, got.Diagnostics, engine.Diagnostic{Severity: engine.SeverityInfo, Code: "fixed_filter",
		Message: `retrieve "open_issues" keeps statuses:open,in-progress fixed; the question's statuses:closed was not applied`})
}
