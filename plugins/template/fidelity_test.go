package template

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

// week is the asked period of the empty-period cases: 2026-11-09 – 2026-11-15.
var week = &sdk.TimeRange{Since: time.Date(2026, 11, 9, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)}

// nearest marks records as the nearest activity before the asked period.
func nearest(records []sdk.Record, how string) []sdk.Record {
	out := make([]sdk.Record, len(records))
	for i, r := range records {
		f := map[string]any{fieldOutside: how}
		for k, v := range r.Fields {
			f[k] = v
		}
		r.Fields = f
		out[i] = r
	}
	return out
}

// runRoles drafts, reviews and writes as the engine does, with the writer
// given the period and the caveats.
func runRoles(t *testing.T, query string, period *sdk.TimeRange, caveats []string, records []sdk.Record) (sdk.AnalystOutput, sdk.CriticOutput, sdk.WriterOutput) {
	t.Helper()
	a := New()
	var draft sdk.AnalystOutput
	invoke(t, a, sdk.RoleAnalyst, sdk.AnalystInput{Query: query, Mode: "discovery", Temporal: period}, records, &draft)
	require.Equal(t, sdk.AnalystDraftReady, draft.Status)
	var rv sdk.CriticOutput
	invoke(t, a, sdk.RoleCritic, sdk.CriticInput{Draft: draft.Draft, Query: query, Mode: "discovery"}, records, &rv)
	var out sdk.WriterOutput
	invoke(t, a, sdk.RoleWriter, sdk.WriterInput{Query: query, Draft: draft.Draft, Review: &rv, Mode: "discovery", Temporal: period, Caveats: caveats}, records, &out)
	return draft, rv, out
}

func TestWriterFidelity(t *testing.T) {
	commits := fixtureRecords()[:3]
	for _, tt := range []struct {
		name       string
		query      string
		period     *sdk.TimeRange
		caveats    []string
		records    []sdk.Record
		confidence string
		contains   []string
		absent     []string
		sources    int
	}{
		{
			name: "complete answer", query: "what changed?", records: commits, confidence: confidenceHigh,
			contains: []string{"Found 3 records dated 2026-11-02 – 2026-11-04: 3 commits.", "Confidence: High (review PASS, 3 records)"},
			sources:  3,
		},
		{
			name: "empty period answered with the nearest activity", query: "what changed last week?", period: week,
			records: nearest(commits, "nearest_before"), confidence: confidenceLow,
			contains: []string{
				"No commits in the requested period (2026-11-09 – 2026-11-15); the most recent before it is `3f2a9c1d` Fix token refresh race in payments client (2026-11-04).",
				"Confidence: Low (nothing in the requested period: the records shown are the nearest activity outside it)",
				"### Nearest activity outside the requested period (3)",
			},
			absent:  []string{"Found 3 records", "Confidence: High"},
			sources: 0,
		},
		{
			name: "nearest after the period", query: "what changed last week?", period: week,
			records: nearest(commits, "nearest_after"), confidence: confidenceLow,
			contains: []string{"the oldest after it is `1a2b3c4d` Bump go to 1.26 (2026-11-02)."},
		},
		{
			name: "an unapplied constraint caps confidence at Medium", query: "what did alice change?", records: commits,
			caveats: []string{`the authors constraint "alice" was not applied by youtrack`}, confidence: confidenceMedium,
			contains: []string{`Confidence: Medium (partial answer: the authors constraint "alice" was not applied by youtrack; review PASS, 3 records)`},
			sources:  3,
		},
		{
			name: "a counting question states the number", query: "how many commits were made in November 2026?",
			period:  &sdk.TimeRange{Since: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
			records: commits, confidence: confidenceHigh,
			contains: []string{"3 commits by 2 authors between 2026-11-01 and 2026-11-30."},
			sources:  3,
		},
		{
			name: "short ids from the source", query: "what changed?", confidence: confidenceMedium,
			records:  []sdk.Record{{ID: "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", Source: "git", Kind: sdk.KindCommit, Title: "fix", Author: "a", Time: day0, Tier: 1, Fields: map[string]any{"short_id": "3f2a9c1"}}},
			contains: []string{"`3f2a9c1` fix"}, absent: []string{"`3f2a9c1d`"}, sources: 1,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, rv, out := runRoles(t, tt.query, tt.period, tt.caveats, tt.records)
			assert.Equal(t, tt.confidence, out.ConfidenceLevel, out.FinalReport)
			for _, s := range tt.contains {
				assert.Contains(t, out.FinalReport, s)
			}
			for _, s := range tt.absent {
				assert.NotContains(t, out.FinalReport, s)
			}
			if tt.contains != nil && strings.Contains(tt.name, "nearest") {
				assert.NotEqual(t, sdk.VerdictReject, rv.Status, "a draft that presents the nearest activity as context holds: %s", rv.Critique)
			}
			if tt.sources >= 0 && !strings.Contains(tt.name, "after") {
				assert.Len(t, out.SourcesUsed, tt.sources, "records outside the period are context, not sources of the answer")
			}
		})
	}
}
