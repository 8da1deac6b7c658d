package template

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

func TestCritic(t *testing.T) {
	all := fixtureRecords()
	trusted := tierAtMost(all, 2)
	draftAll := analystDraft(t, New(), "what changed?", "discovery", all).Draft
	draftTrusted := analystDraft(t, New(), "what changed?", "strict", trusted).Draft
	noSources := draftTrusted[:strings.Index(draftTrusted, "\n### Sources")]

	tests := []struct {
		name           string
		draft, mode    string
		records        []sdk.Record
		wantStatus     string
		wantCompliance string
		wantInCritique []string
		wantSuggestion string // a substring of one suggestion
		wantGap        string // a substring of one logical gap
	}{
		{name: "complete draft over trusted sources passes", draft: draftTrusted, mode: "strict", records: trusted,
			wantStatus: "PASS", wantCompliance: "符合", wantInCritique: []string{"cites 6 of 6", "Every check passed"}},
		{name: "flagged tier in discovery mode warns", draft: draftAll, mode: "discovery", records: all,
			wantStatus: "WARN", wantCompliance: "符合", wantInCritique: []string{"`reddit-t3_abc`"}, wantSuggestion: "unverified"},
		{name: "flagged tier in strict mode rejects", draft: draftAll, mode: "strict", records: all,
			wantStatus: "REJECT", wantCompliance: "違反", wantInCritique: []string{"strict mode allows tier 1–2 sources only"},
			wantSuggestion: "Remove the records", wantGap: "`reddit-t3_abc`"},
		{name: "no citations rejects", draft: "Payments changed a lot.\n\n### Sources\n\nnone", mode: "discovery", records: trusted,
			wantStatus: "REJECT", wantCompliance: "符合", wantInCritique: []string{"cites none of the 6 records"},
			wantSuggestion: "`3f2a9c1d`", wantGap: "No statement in the draft is tied to a record."},
		{name: "no sources section rejects", draft: noSources, mode: "discovery", records: trusted,
			wantStatus: "REJECT", wantCompliance: "符合", wantInCritique: []string{"no Sources section"}, wantSuggestion: "Add a Sources section"},
		{name: "overclaimed count rejects", draft: strings.Replace(draftTrusted, "3 commits", "30 commits", 1), mode: "discovery", records: trusted,
			wantStatus: "REJECT", wantInCritique: []string{`claims "30 commits" but the evidence holds 3 commits`}, wantCompliance: "符合",
			wantGap: "Unsupported count"},
		{name: "overclaimed heading count rejects", draft: strings.Replace(draftTrusted, "### Issues (1)", "### Issues (4)", 1), mode: "", records: trusted,
			wantStatus: "REJECT", wantCompliance: "符合", wantInCritique: []string{`claims "Issues (4)" but the evidence holds 1 issue`}},
		{name: "counting a subset is fine", draft: draftTrusted + "\nOf these, 2 commits touch payments.\n", mode: "discovery", records: trusted,
			wantStatus: "PASS", wantCompliance: "符合"},
		{name: "empty draft rejects", draft: "  \n", mode: "discovery", records: trusted,
			wantStatus: "REJECT", wantCompliance: "符合", wantInCritique: []string{"the draft is empty"}, wantGap: "No answer"},
		{name: "thin evidence warns", draft: "`3f2a9c1d` fixed a race on 2026-11-04.\n\n## Sources\n\n1. `3f2a9c1d`", mode: "discovery", records: trusted,
			wantStatus: "WARN", wantCompliance: "符合", wantInCritique: []string{"only 1 record supports the answer"}, wantSuggestion: "5 records are in the context but not cited"},
		{name: "undated draft warns", draft: "`3f2a9c1d`, `9b8c7d6e` and `PAY-142` changed.\n\n# References\n", mode: "discovery", records: trusted,
			wantStatus: "WARN", wantCompliance: "符合", wantInCritique: []string{"no dates"}, wantGap: "time frame"},
		{name: "monitor mode with one side warns", draft: draftTrusted, mode: "monitor", records: trusted,
			wantStatus: "WARN", wantCompliance: "符合", wantInCritique: []string{"only one side"}},
		{name: "monitor mode with both sides passes", draft: draftAll, mode: "monitor", records: all,
			wantStatus: "PASS", wantCompliance: "符合"},
		{name: "no records to check against warns", draft: "Something changed.", mode: "discovery", records: nil,
			wantStatus: "WARN", wantCompliance: "符合", wantInCritique: []string{"no context records"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out sdk.CriticOutput
			raw := invoke(t, New(), sdk.RoleCritic, sdk.CriticInput{Draft: tt.draft, Query: "what changed?", Mode: tt.mode}, tt.records, &out)
			assert.Equal(t, tt.wantStatus, out.Status, out.Critique)
			assert.Equal(t, tt.wantCompliance, out.ModeCompliance)
			assert.True(t, strings.HasPrefix(out.Critique, tt.wantStatus+": "))
			for _, s := range tt.wantInCritique {
				assert.Contains(t, out.Critique, s)
			}
			if tt.wantSuggestion != "" {
				assert.True(t, containsIn(out.Suggestions, tt.wantSuggestion), "suggestions %q lack %q", out.Suggestions, tt.wantSuggestion)
			}
			if tt.wantGap != "" {
				assert.True(t, containsIn(out.LogicalGaps, tt.wantGap), "gaps %q lack %q", out.LogicalGaps, tt.wantGap)
			}
			if tt.wantStatus == "REJECT" {
				assert.NotEmpty(t, out.Suggestions, "a rejection says how to fix it")
			}
			require.Contains(t, string(raw), `"logical_gaps":[`, "arrays are never null")
		})
	}
}

func containsIn(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func FuzzCritic(f *testing.F) {
	f.Add("## Answer\n\n3 commits\n\n### Commits (3)\n- `3f2a9c1d`\n### Sources\n", "strict")
	f.Add("", "discovery")
	f.Add("### Issues (99999999999999999999)\n99999999999999999999 records", "monitor")
	f.Add("#\n##\n###### x (1)\n`", "")
	records := fixtureRecords()
	f.Fuzz(func(t *testing.T, draft, mode string) {
		out := review(defaultConfig(), sdk.CriticInput{Draft: draft, Mode: mode}, records)
		if out.Status != "PASS" && out.Status != "WARN" && out.Status != "REJECT" {
			t.Fatalf("status %q", out.Status)
		}
		if out.Suggestions == nil || out.LogicalGaps == nil {
			t.Fatal("nil list")
		}
		w := compose(defaultConfig(), sdk.WriterInput{Draft: draft, Mode: mode, Review: &out}, records)
		if !strings.HasPrefix(w.FinalReport, "# Report") {
			t.Fatalf("report starts %q", w.FinalReport[:min(20, len(w.FinalReport))])
		}
		_ = analyze(defaultConfig(), sdk.AnalystInput{Draft: draft, Mode: mode, Review: &out}, records)
	})
}

// TestCriticFollowsTheEnginesTierFlags checks that records the engine's tier
// filter has seen are judged by its flag, not by the default tier rule.
// TestCriticCountsOnlyTheDraftsOwnClaims: a number in a quoted record
// title ("chunks of up to 2048 records") is not a count the draft claims;
// it used to make every draft listing that commit a REJECT.
func TestCriticCountsOnlyTheDraftsOwnClaims(t *testing.T) {
	records := fixtureRecords()
	records[0].Title = "sdk: chunks of up to 2048 records (a little faster over a subprocess); the mid-stream panic test emits more than one chunk, really"
	draft := analystDraft(t, New(), "what changed?", "discovery", records).Draft
	require.Contains(t, draft, "chunks of up to 2048 records")
	rv := criticReview(t, New(), draft, "discovery", records)
	assert.NotContains(t, rv.Critique, "2048", "the title is not a claim")

	rv = criticReview(t, New(), draft+"\nIn all, 2048 records changed.\n", "discovery", records)
	assert.Equal(t, sdk.VerdictReject, rv.Status, "the draft's own overclaim still counts")
	assert.Contains(t, rv.Critique, `"2048 records"`)
}

// TestCriticWarnsWhenNothingFallsInThePeriod: an answer about last week
// built from older records is said to be so, in every language.
func TestCriticWarnsWhenNothingFallsInThePeriod(t *testing.T) {
	records := tierAtMost(fixtureRecords(), 2)
	later := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		language string
		period   *sdk.TimeRange
		warn     bool
	}{
		{"en", &sdk.TimeRange{Since: later, Until: later.AddDate(0, 0, 7)}, true},
		{"zh", &sdk.TimeRange{Since: later, Until: later.AddDate(0, 0, 7)}, true},
		{"en", &sdk.TimeRange{Since: day0, Until: day0.AddDate(0, 0, 7)}, false},
		{"en", nil, false},
	} {
		a := New()
		_, err := a.Configure(t.Context(), []byte(`{"language":"`+tt.language+`"}`))
		require.NoError(t, err)
		var out sdk.AnalystOutput
		invoke(t, a, sdk.RoleAnalyst, sdk.AnalystInput{Query: "q", Mode: "strict", Temporal: tt.period}, records, &out)
		rv := criticReview(t, a, out.Draft, "strict", records)
		if !tt.warn {
			assert.Equal(t, sdk.VerdictPass, rv.Status, "%s %v: %s", tt.language, tt.period, rv.Critique)
			continue
		}
		assert.Equal(t, sdk.VerdictWarn, rv.Status, tt.language)
		assert.Contains(t, rv.Critique, "none of the records falls in the requested period (2026-12-01 – 2026-12-07)", tt.language)
		assert.Contains(t, rv.LogicalGaps, "Nothing in the evidence covers the requested period 2026-12-01 – 2026-12-07.")
	}
}

func TestCountClaims(t *testing.T) {
	tests := []struct {
		in   string
		want []claim
	}{
		{"Found 12 records: 7 commits and 1 issue.", []claim{{"12 records", 12, "record"}, {"7 commits", 7, "commit"}, {"1 issue", 1, "issue"}}},
		{"2 Merge Requests, 3 merge_requests", []claim{{"2 Merge Requests", 2, "merge_request"}, {"3 merge_requests", 3, "merge_request"}}},
		{"v12 commits, 3 commitments, 4commits, 5 documents.", []claim{{"5 documents", 5, "document"}}},
		{"99999999999999999999 records", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, countClaims(tt.in), tt.in)
	}
}

func TestCited(t *testing.T) {
	tests := []struct {
		draft, id string
		want      bool
	}{
		{"fixed in `3f2a9c1d`", "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", true},
		{"fixed in 3f2a9c1d.", "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", true},
		{"see PAY-142 and PAY-1420", "PAY-142", true},
		{"see PAY-1420", "PAY-142", false},
		{"see acme/payments!77", "acme/payments!77", true},
		{"see acme/payments!770", "acme/payments!77", false},
		{"pipeline 42 failed", "42", false},
		{"pipeline `42` failed", "42", true},
		{"anything", "", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, cited(tt.draft, sdk.Record{ID: tt.id}), "%q in %q", tt.id, tt.draft)
	}
}
