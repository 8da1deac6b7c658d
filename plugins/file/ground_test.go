package file

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGroundCases(t *testing.T) {
	s := configured(t, map[string]any{"path": "testdata/issues.csv"})
	tests := []struct {
		term      sdk.Term
		known     bool
		canonical []string
		note      string
	}{
		{sdk.Term{Kind: sdk.TermProject, Value: "abc"}, true, []string{"ABC"}, ""},
		{sdk.Term{Kind: sdk.TermProject, Value: "AB"}, false, nil, "no record in the files has this project"},
		{sdk.Term{Kind: sdk.TermState, Value: "in_progress"}, true, []string{"In Progress"}, ""},
		{sdk.Term{Kind: sdk.TermState, Value: "Closed"}, true, []string{"closed"}, ""},
		{sdk.Term{Kind: sdk.TermState, Value: "unresolved"}, true, []string{"In Progress", "open"}, "a group of statuses"},
		{sdk.Term{Kind: sdk.TermState, Value: "resolved"}, true, []string{"closed"}, "a group of statuses"},
		{sdk.Term{Kind: sdk.TermState, Value: "wont-fix"}, false, nil, "no record in the files has this state"},
		{sdk.Term{Kind: sdk.TermLabel, Value: "AUTH"}, true, []string{"auth"}, ""},
		{sdk.Term{Kind: sdk.TermAuthor, Value: "chen"}, true, []string{"Alice Chen"}, ""},
		{sdk.Term{Kind: sdk.TermAuthor, Value: "n"}, true, []string{"Alice Chen", "Bob Lin", "Carol Wang"}, ""},
		{sdk.Term{Kind: sdk.TermRef, Value: "v1.0"}, false, nil, "grounds project, state, label and author terms only"},
	}
	var terms []sdk.Term
	for _, tt := range tests {
		terms = append(terms, tt.term)
	}
	resp := plugintest.Ground(t, s, terms...)
	require.Len(t, resp.Terms, len(tests))
	for i, tt := range tests {
		got := resp.Terms[i]
		assert.Equal(t, tt.known, got.Known, "%+v", tt.term)
		assert.Equal(t, tt.canonical, got.Canonical, "%+v", tt.term)
		if tt.note == "" {
			assert.Empty(t, got.Note, "%+v", tt.term)
		} else {
			assert.Contains(t, got.Note, tt.note, "%+v", tt.term)
		}
	}
	info, err := s.Describe(t.Context())
	require.NoError(t, err)
	assert.Equal(t, info.Filters, resp.Filters, "the filters are Describe's")
	assert.Equal(t, "testdata/issues.csv", resp.Coverage.Name)
}

// Ground agrees with Fetch on the example issues: a term is known exactly
// when filtering by it finds records, and the coverage spans their times.
func TestGroundAgreesWithTheFilters(t *testing.T) {
	s := configured(t, map[string]any{"path": examplePath})
	all := plugintest.Fetch(t, s, sdk.FetchRequest{})
	require.NotEmpty(t, all)

	filterOf := map[string]string{sdk.TermProject: "projects", sdk.TermState: "statuses", sdk.TermLabel: "labels", sdk.TermAuthor: "authors"}
	var terms []sdk.Term
	for _, r := range all {
		terms = append(terms,
			sdk.Term{Kind: sdk.TermProject, Value: strings.ToLower(stringField(&r, "project"))},
			sdk.Term{Kind: sdk.TermState, Value: strings.ToUpper(stringField(&r, "status"))},
			sdk.Term{Kind: sdk.TermAuthor, Value: strings.Fields(r.Author)[0]})
		labels, _ := r.Fields["labels"].([]string)
		for _, l := range labels {
			terms = append(terms, sdk.Term{Kind: sdk.TermLabel, Value: l})
		}
	}
	terms = append(terms,
		sdk.Term{Kind: sdk.TermProject, Value: "NOPE"}, sdk.Term{Kind: sdk.TermLabel, Value: "nope"},
		sdk.Term{Kind: sdk.TermAuthor, Value: "Nobody Atall"}, sdk.Term{Kind: sdk.TermState, Value: "nope"})
	slices.SortFunc(terms, func(a, b sdk.Term) int { return strings.Compare(a.Kind+"\x00"+a.Value, b.Kind+"\x00"+b.Value) })
	terms = slices.Compact(terms)
	require.LessOrEqual(t, len(terms), sdk.MaxGroundTerms)
	resp := plugintest.Ground(t, s, terms...)

	for i, term := range terms {
		matched := plugintest.Fetch(t, s, sdk.FetchRequest{Filters: map[string][]string{filterOf[term.Kind]: {term.Value}}})
		assert.Equal(t, len(matched) > 0, resp.Terms[i].Known, "%s %q: %d records match its filter", term.Kind, term.Value, len(matched))
		for _, form := range resp.Terms[i].Canonical {
			assert.NotEmpty(t, plugintest.Fetch(t, s, sdk.FetchRequest{Filters: map[string][]string{filterOf[term.Kind]: {form}}}), "canonical %q finds records", form)
		}
	}

	earliest, latest := all[0].Time, all[0].Time
	for _, r := range all {
		if r.Time.Before(earliest) {
			earliest = r.Time
		}
		if r.Time.After(latest) {
			latest = r.Time
		}
	}
	assert.True(t, earliest.Equal(resp.Coverage.Earliest), "earliest %v, want %v", resp.Coverage.Earliest, earliest)
	assert.True(t, latest.Equal(resp.Coverage.Latest), "latest %v, want %v", resp.Coverage.Latest, latest)
}

func TestGroundErrors(t *testing.T) {
	_, err := sdktest.Ground(context.Background(), sdktest.Source(t, New()), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermProject, Value: "PAY"}}})
	assert.ErrorIs(t, err, sdk.ErrBadConfig)
	assert.Contains(t, err.Error(), "not configured")

}
