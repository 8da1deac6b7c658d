package template

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

func TestWriterReport(t *testing.T) {
	a := New()
	records := fixtureRecords()
	draft := analystDraft(t, a, "what changed in payments last week?", "discovery", records).Draft
	rv := criticReview(t, a, draft, "discovery", records)
	var out sdk.WriterOutput
	invoke(t, a, sdk.RoleWriter, sdk.WriterInput{Query: "what changed in payments last week?", Draft: draft, Review: &rv, Mode: "discovery"}, records, &out)

	assert.Equal(t, "Medium", out.ConfidenceLevel, "a WARN review caps confidence")
	assert.Len(t, out.SourcesUsed, len(records))
	assert.Contains(t, out.SourcesUsed, "https://gitlab.example.com/acme/payments/-/merge_requests/77")
	assert.Contains(t, out.SourcesUsed, "docs/runbook.md", "a record without a URL is named by ID")
	assert.True(t, strings.HasPrefix(out.FinalReport, "# Report: what changed in payments last week?\n"))
	assert.Equal(t, 1, strings.Count(out.FinalReport, "Sources"), "the draft's own Sources section is replaced by the report's")
	assert.Equal(t, 1, strings.Count(out.FinalReport, "Found 7 records"), "the summary is not repeated in the details")
	assert.Contains(t, out.FinalReport, "\n### Commits (3)", "draft headings sit under Details, one level below it")
	assert.Contains(t, out.FinalReport, "## Review notes")
	assert.Contains(t, out.FinalReport, "[Payments: idempotent refunds](https://gitlab.example.com/acme/payments/-/merge_requests/77)")
	assert.Contains(t, out.FinalReport, "flagged: `reddit-t3_abc` [Tier 5 | reddit]")
	golden(t, "writer_report.golden.md", out.FinalReport)
}

func TestWriterUsesOnlyCitedRecords(t *testing.T) {
	records := fixtureRecords()
	draft := "Only `3f2a9c1d` and `PAY-142` matter.\n\n## Sources\n"
	var out sdk.WriterOutput
	invoke(t, New(), sdk.RoleWriter, sdk.WriterInput{Draft: draft, Mode: "strict"}, records, &out)
	assert.Equal(t, []string{"https://gitlab.example.com/acme/payments/-/commit/3f2a9c1d", "https://yt.example.com/issue/PAY-142"}, out.SourcesUsed)
	assert.Contains(t, out.FinalReport, "Mode: strict — only tier 1–2 sources are trusted.")
	assert.NotContains(t, out.FinalReport, "## Review notes", "no review, no notes")
	assert.Contains(t, out.FinalReport, "Only `3f2a9c1d` and `PAY-142` matter.")
}

func TestWriterConfidence(t *testing.T) {
	pass := &sdk.CriticOutput{Status: "PASS"}
	warn := &sdk.CriticOutput{Status: "WARN", Critique: "thin", Suggestions: []string{"more"}, LogicalGaps: []string{"when?"}}
	reject := &sdk.CriticOutput{Status: "REJECT", Critique: "bad"}
	records := fixtureRecords()
	tests := []struct {
		name    string
		review  *sdk.CriticOutput
		records []sdk.Record
		want    string
	}{
		{"pass with enough evidence", pass, records, "High"},
		{"pass with thin evidence", pass, records[:2], "Medium"},
		{"warn", warn, records, "Medium"},
		{"reject", reject, records, "Low"},
		{"no review", nil, records, "Medium"},
		{"no evidence", pass, nil, "Low"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out sdk.WriterOutput
			raw := invoke(t, New(), sdk.RoleWriter, sdk.WriterInput{Query: "q", Draft: "draft", Review: tt.review, Mode: "discovery"}, tt.records, &out)
			assert.Equal(t, tt.want, out.ConfidenceLevel)
			assert.Contains(t, out.FinalReport, "Confidence: "+tt.want)
			assert.Contains(t, string(raw), `"sources_used":[`)
			if tt.review == warn {
				assert.Contains(t, out.FinalReport, "## Review notes\n\nthin\n\n- more\n- Gap: when?\n")
			}
		})
	}
}

func TestDetailsOf(t *testing.T) {
	draft := "## Answer: q\n\nSummary line.\n\n### Commits (1)\n\n- `a`\n\n### Sources\n\n1. `a` — url\n\n### Notes\n\nkept\n"
	assert.Equal(t, "### Commits (1)\n\n- `a`\n\n### Notes\n\nkept", detailsOf(draft, "Summary line."))
}

func TestWriterWithoutDraftDraftsFromRecords(t *testing.T) {
	records := fixtureRecords()
	var out sdk.WriterOutput
	invoke(t, New(), sdk.RoleWriter, sdk.WriterInput{Query: "what changed?", Mode: "discovery"}, records, &out)
	assert.Contains(t, out.FinalReport, "## Details")
	assert.Contains(t, out.FinalReport, "\n### Commits (3)")
	assert.Contains(t, out.FinalReport, "- `3f2a9c1d` Fix token refresh race in payments client — alice, 2026-11-04")
	assert.Equal(t, "Medium", out.ConfidenceLevel)
	assert.Len(t, out.SourcesUsed, len(records))
}

func TestWriterSummaryCountsAllEvidence(t *testing.T) {
	a := New()
	_, err := a.Configure(t.Context(), []byte(`{"max_items":2}`))
	require.NoError(t, err)
	records := manyRecords(12)
	draft := analystDraft(t, a, "q", "discovery", records).Draft
	var out sdk.WriterOutput
	invoke(t, a, sdk.RoleWriter, sdk.WriterInput{Query: "q", Draft: draft, Mode: "discovery"}, records, &out)
	assert.Contains(t, out.FinalReport, "## Summary\n\nFound 12 records")
	assert.Contains(t, out.FinalReport, "(no review, 6 of 12 records cited)")
	assert.Len(t, out.SourcesUsed, 6, "two listed per kind")
	assert.Equal(t, 1, strings.Count(out.FinalReport, "Found 12 records"), "the draft's overview is not repeated")
}

// TestWriterSummaryAgreesWithDetails: the summary and the analyst's draft
// under Details count the same records in every mode. Strict mode used to
// count the low-tier records the analyst had left out in the summary only.
func TestWriterSummaryAgreesWithDetails(t *testing.T) {
	for _, mode := range []string{"discovery", "strict", "monitor"} {
		t.Run(mode, func(t *testing.T) {
			a := New()
			records := fixtureRecords()
			draft := analystDraft(t, a, "q", mode, records).Draft
			var out sdk.WriterOutput
			invoke(t, a, sdk.RoleWriter, sdk.WriterInput{Query: "q", Draft: draft, Mode: mode}, records, &out)
			summary, _, ok := strings.Cut(out.FinalReport, "## Details")
			require.True(t, ok, out.FinalReport)
			found := func(s string) string {
				i := strings.Index(s, "Found ")
				require.GreaterOrEqual(t, i, 0, s)
				return strings.Fields(s[i:])[1]
			}
			want := found(draft)
			assert.Equal(t, want, found(summary), "summary")
			assert.Equal(t, 1, strings.Count(out.FinalReport, "Found "), "the draft's overview is the summary, not repeated")
		})
	}
}

// TestWriterSourcesWithoutURL: records without a URL (a local git history)
// are named once under Details; Sources sums them up instead of listing
// each title a second time.
func TestWriterSourcesWithoutURL(t *testing.T) {
	records := manyRecords(5)
	for i := range records {
		records[i].URL, records[i].Source, records[i].Kind, records[i].Tier = "", "git", sdk.KindCommit, 1
	}
	records[4].URL = "https://example.com/c4"
	a := New()
	draft := analystDraft(t, a, "q", "discovery", records).Draft
	var out sdk.WriterOutput
	invoke(t, a, sdk.RoleWriter, sdk.WriterInput{Query: "q", Draft: draft, Mode: "discovery"}, records, &out)
	for _, r := range records[:4] {
		assert.Equal(t, 1, strings.Count(out.FinalReport, r.Title), "%s is named once", r.Title)
	}
	_, sources, ok := strings.Cut(out.FinalReport, "## Sources\n\n")
	require.True(t, ok)
	sources, _, _ = strings.Cut(sources, "\n## ")
	id := func(i int) string { return shortID(records[i].ID) }
	assert.Equal(t, "1. [Change number 4](https://example.com/c4) — commit `"+id(4)+"`, dev4, 2026-11-02, git, tier 1\n\n"+
		"Cited without a URL: 4 commits (git, tier 1) — `"+id(3)+"`, `"+id(2)+"`, `"+id(1)+"` and 1 more.\n", sources, "newest first")
	assert.Len(t, out.SourcesUsed, 5, "sources_used still names every cited record")
}

func TestAnalystRequestedPeriodEndsTheDayBefore(t *testing.T) {
	midnight := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	var out sdk.AnalystOutput
	invoke(t, New(), sdk.RoleAnalyst, sdk.AnalystInput{Query: "q", Mode: "discovery",
		Temporal: &sdk.TimeRange{Since: midnight, Until: midnight.AddDate(0, 0, 7)}}, fixtureRecords(), &out)
	assert.Contains(t, out.Draft, "Requested period: 2026-11-02 – 2026-11-08 (", "the range is half-open: it ends before the 9th")
}

// TestWriterCountsTheWholeSetWhenOnlySomeAreShown: with more records than
// the engine sends, the counts come from its summary of the whole set, and
// the report says the listed ones are a selection.
func TestWriterCountsTheWholeSetWhenOnlySomeAreShown(t *testing.T) {
	records := manyRecords(12)
	whole := &sdk.Evidence{Total: 5000, Shown: 12, Kinds: map[string]int{sdk.KindIssue: 1000, sdk.KindCommit: 4000},
		Authors:  map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 4979},
		Earliest: time.Date(2019, 3, 4, 0, 0, 0, 0, time.UTC), Latest: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	for _, c := range []struct{ query, want string }{
		{"how many commits and issues were there?", "4000 commits and 1000 issues by 7 authors (the newest 12 are listed)."},
		{"what changed?", "Found 5000 records dated 2019-03-04 – 2026-11-01: "},
	} {
		t.Run(c.query, func(t *testing.T) {
			a := New()
			var draft sdk.AnalystOutput
			invoke(t, a, sdk.RoleAnalyst, sdk.AnalystInput{Query: c.query, Mode: "discovery", Evidence: whole}, records, &draft)
			var out sdk.WriterOutput
			invoke(t, a, sdk.RoleWriter, sdk.WriterInput{Query: c.query, Draft: draft.Draft, Mode: "discovery", Evidence: whole}, records, &out)
			summary, _, _ := strings.Cut(out.FinalReport, "## Details")
			assert.Contains(t, summary, c.want)
			assert.NotContains(t, out.FinalReport, "Found 12 records")
		})
	}
}

// TestCriticAcceptsCountsOfTheWholeSet: a draft that counts every record
// the engine held is no overclaim when the critic is told about the whole
// set; without that it is.
func TestCriticAcceptsCountsOfTheWholeSet(t *testing.T) {
	records := manyRecords(12)
	whole := &sdk.Evidence{Total: 5000, Shown: 12, Kinds: map[string]int{sdk.KindIssue: 1000, sdk.KindCommit: 4000}}
	a := New()
	var draft sdk.AnalystOutput
	invoke(t, a, sdk.RoleAnalyst, sdk.AnalystInput{Query: "what changed?", Mode: "discovery", Evidence: whole}, records, &draft)
	require.Contains(t, draft.Draft, "Found 5000 records")
	for _, c := range []struct {
		whole *sdk.Evidence
		want  string
	}{{whole, sdk.VerdictPass}, {nil, sdk.VerdictReject}} {
		var out sdk.CriticOutput
		invoke(t, a, sdk.RoleCritic, sdk.CriticInput{Draft: draft.Draft, Query: "what changed?", Mode: "discovery", Evidence: c.whole}, records, &out)
		assert.Equal(t, c.want, out.Status, out.Critique)
	}
}
