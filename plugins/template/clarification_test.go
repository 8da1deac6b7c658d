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

func TestClarificationFromCandidates(t *testing.T) {
	people := []string{"Jeff King", "Jeff Hostetler", "Jeff Smith", "Jeffrey Walton", "Jeff Garzik", "Jeff Sipek", "Jeff Layton", "Jeff Muizelaar"}
	for _, tt := range []struct {
		name         string
		in           sdk.ClarificationInput
		wantQuestion string
		wantOptions  []string
	}{
		{"several people", sdk.ClarificationInput{Query: "what did Jeff change?", AmbiguityType: "multiple_matches", Entity: "authors",
			Message: `"Jeff" matches 3 people in git`, Candidates: people[:3]},
			`"Jeff" matches 3 people in git: which do you mean?`, []string{"Jeff King", "Jeff Hostetler", "Jeff Smith"}},
		{"more people than options", sdk.ClarificationInput{Query: "what did Jeff change?", AmbiguityType: "multiple_matches", Entity: "authors",
			Message: `"Jeff" matches 8 people in git`, Candidates: people},
			`"Jeff" matches 8 people in git: which do you mean?`, append(people[:6:6], "Another (2 more match; name it in full)")},
		{"two intents", sdk.ClarificationInput{Query: "deploy the docs", AmbiguityType: "intent",
			Message: "the question reads as request_help (0.84) and as command_action (0.80), whose answers exclude each other", Candidates: []string{"request_help", "command_action"}},
			"The question reads as request_help (0.84) and as command_action (0.80), whose answers exclude each other: which answer do you want?",
			[]string{"request help", "command action"}},
		{"nothing to act on", sdk.ClarificationInput{Query: "please close it", AmbiguityType: "missing_entity", Entity: "targets",
			Message: "command_action needs targets, and the question names none"},
			`What should "please close it" act on? It names no targets.`, []string{}},
		{"no message", sdk.ClarificationInput{Query: "what did Jeff change?", AmbiguityType: "multiple_matches", Candidates: people[:2]},
			`"what did Jeff change?" is ambiguous: which do you mean?`, people[:2]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out sdk.ClarificationOutput
			invoke(t, New(), sdk.RoleClarification, tt.in, nil, &out)
			assert.Equal(t, tt.wantQuestion, out.Question)
			assert.Equal(t, tt.wantOptions, out.Options)
		})
	}
}
