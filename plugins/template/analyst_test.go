package template

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

func TestAnalystCountsOnlyTheKindsThePeriodWasAppliedTo(t *testing.T) {
	var out sdk.AnalystOutput
	invoke(t, New(), sdk.RoleAnalyst, sdk.AnalystInput{
		Query: "what is the status of the project?", Mode: "discovery", Task: "Retrieve commit data",
		Temporal: &sdk.TimeRange{Since: day0, Until: day0.Add(7 * 24 * time.Hour), Kinds: []string{sdk.KindCommit}},
	}, fixtureRecords(), &out)
	assert.Contains(t, out.Draft, "Requested period: 2026-11-02 – 2026-11-09 for commits (3 of 3 records fall in it)", "only the commits were asked for the period")
}

func TestAnalystResearchDraft(t *testing.T) {
	records := fixtureRecords()
	var out sdk.AnalystOutput
	invoke(t, New(), sdk.RoleAnalyst, sdk.AnalystInput{
		Query: "what changed in payments last week?", Mode: "discovery", Task: "Retrieve commit data",
		Temporal: &sdk.TimeRange{Since: day0, Until: day0.Add(7 * 24 * time.Hour)},
	}, records, &out)

	assert.Equal(t, sdk.AnalystDraftReady, out.Status)
	assert.Empty(t, out.NewQueries)
	for _, r := range records {
		assert.Contains(t, out.Draft, "`"+shortID(r.ID)+"`", "every record is cited")
		if r.URL != "" {
			assert.Contains(t, out.Draft, r.URL, "every URL is under Sources")
		}
	}
	assert.Contains(t, out.Draft, "3 commits, 1 issue, 1 merge request and 2 documents")
	assert.Contains(t, out.Draft, "Top authors: alice (2), bob (2)")
	assert.Contains(t, out.Draft, "Projects: acme/payments (4), acme/infra (1)")
	assert.Contains(t, out.Draft, "Time span: 2026-11-02 – 2026-11-04")
	assert.Contains(t, out.Draft, "Requested period: 2026-11-02 – 2026-11-09 (6 of 7 records fall in it)", "the undated runbook is not counted")
	assert.Contains(t, out.Draft, "[Tier 5 | reddit]", "low-tier records are flagged")
	assert.Contains(t, out.ReasoningChain, "Read 7 records")
	assert.Contains(t, out.ReasoningChain, `task "Retrieve commit data"`)
	golden(t, "analyst_draft.golden.md", out.Draft)
}

func TestAnalystStrictModeLeavesOutUntrustedTiers(t *testing.T) {
	out := analystDraft(t, New(), "verify the payments outage", "strict", fixtureRecords())
	require.Equal(t, sdk.AnalystDraftReady, out.Status)
	assert.NotContains(t, out.Draft, "reddit-t3_abc")
	assert.Contains(t, out.Draft, "Found 6 records")
	assert.Contains(t, out.ReasoningChain, "Left out 1 record")
}

func TestAnalystSearchRequired(t *testing.T) {
	tests := []struct {
		name        string
		in          sdk.AnalystInput
		records     []sdk.Record
		wantQueries []string
	}{
		{"no records", sdk.AnalystInput{Query: "What changed in payments last week?", Task: "Retrieve commit data"}, nil,
			[]string{"Retrieve commit data", "What changed in payments last week?", "changed payments"}},
		{"strict mode and only tier-5 records", sdk.AnalystInput{Query: "verify outage", Mode: "strict"},
			[]sdk.Record{{ID: "x1", Source: "ptt", Kind: sdk.KindDocument, Tier: 5}}, []string{"verify outage"}},
		{"nothing to search with", sdk.AnalystInput{}, nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out sdk.AnalystOutput
			raw := invoke(t, New(), sdk.RoleAnalyst, tt.in, tt.records, &out)
			assert.Equal(t, sdk.AnalystSearchRequired, out.Status)
			assert.Equal(t, tt.wantQueries, out.NewQueries)
			assert.Empty(t, out.Draft)
			assert.Contains(t, out.ReasoningChain, "new search")
			assert.Contains(t, string(raw), `"new_queries":[`, "arrays are never null")
		})
	}
}

func TestAnalystMaxItems(t *testing.T) {
	a := New()
	_, err := a.Configure(t.Context(), []byte(`{"max_items":2}`))
	require.NoError(t, err)
	records := manyRecords(9) // 3 commits, 3 issues, 3 merge requests
	out := analystDraft(t, a, "q", "", records)
	assert.Contains(t, out.Draft, "### Commits (3)", "headings count every record")
	assert.Equal(t, 3, strings.Count(out.Draft, "… and 1 more"))
	assert.Equal(t, 6, strings.Count(out.Draft, "\n- `"), "two records listed per kind")
	assert.Equal(t, "PASS", criticReview(t, a, out.Draft, "", records).Status, "a truncated list is not an overclaim")
}

func TestAnalystChinese(t *testing.T) {
	a := New()
	_, err := a.Configure(t.Context(), []byte(`{"language":"zh"}`))
	require.NoError(t, err)
	out := analystDraft(t, a, "付款有什麼變化", "discovery", fixtureRecords())
	assert.Contains(t, out.Draft, "## 回答: 付款有什麼變化")
	assert.Contains(t, out.Draft, "### 提交 (3)")
	assert.Contains(t, out.Draft, "### 來源")
	rv := criticReview(t, a, out.Draft, "discovery", fixtureRecords())
	assert.Equal(t, "WARN", rv.Status, "only the tier-5 record is worth a warning: %s", rv.Critique)
}

func TestAnalystRevise(t *testing.T) {
	records := tierAtMost(fixtureRecords(), 2)
	good := analystDraft(t, New(), "what changed?", "strict", records).Draft
	withoutSources := good[:strings.Index(good, "\n### Sources")] + "\n"
	tests := []struct {
		name        string
		draft       string
		wantRebuilt bool
	}{
		{"missing sources section is added", withoutSources, false},
		{"missing dates are added", "Changes: `3f2a9c1d` and `PAY-142`, 2 records in all.\n\n### Sources\n\n1. `3f2a9c1d`\n2. `PAY-142`\n", false},
		{"no citations rebuilds the draft", "Lots of things changed.\n", true},
		{"overclaimed count rebuilds the draft", strings.Replace(good, "3 commits", "12 commits", 1), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New()
			rv := criticReview(t, a, tt.draft, "strict", records)
			require.NotEqual(t, sdk.VerdictPass, rv.Status, "the critic must object first")
			require.NotEmpty(t, rv.LogicalGaps)

			var out sdk.AnalystOutput
			invoke(t, a, sdk.RoleAnalyst, sdk.AnalystInput{Query: "what changed?", Mode: "strict", Draft: tt.draft, Review: &rv}, records, &out)
			require.Equal(t, sdk.AnalystDraftReady, out.Status)
			assert.Contains(t, out.Draft, "### Review addressed")
			for _, g := range rv.LogicalGaps {
				assert.Contains(t, out.Draft, text.OneLine(g), "each gap the review raised is stated")
			}
			assert.Equal(t, tt.wantRebuilt, strings.Contains(out.Draft, "Rebuilt the draft"))
			if !tt.wantRebuilt {
				assert.True(t, strings.HasPrefix(out.Draft, strings.TrimRight(tt.draft, "\n")), "the original draft is kept")
			}

			again := criticReview(t, a, out.Draft, "strict", records)
			assert.NotEqual(t, sdk.VerdictReject, again.Status, "the revision converges: %s", again.Critique)

			var twice sdk.AnalystOutput
			invoke(t, a, sdk.RoleAnalyst, sdk.AnalystInput{Query: "what changed?", Mode: "strict", Draft: out.Draft, Review: &again}, records, &twice)
			assert.Equal(t, 1, strings.Count(twice.Draft, "### Review addressed"), "notes do not stack")
		})
	}
}

func TestAnalystReviseWithoutEvidenceSearches(t *testing.T) {
	var out sdk.AnalystOutput
	rv := sdk.CriticOutput{Status: sdk.VerdictReject, Critique: "no evidence"}
	invoke(t, New(), sdk.RoleAnalyst, sdk.AnalystInput{Query: "q", Draft: "d", Review: &rv}, nil, &out)
	assert.Equal(t, sdk.AnalystSearchRequired, out.Status)
	assert.Equal(t, []string{"q"}, out.NewQueries)
}

func TestShortIDAndTitle(t *testing.T) {
	tests := []struct {
		rec       sdk.Record
		id, title string
	}{
		{sdk.Record{ID: "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", Title: "Fix"}, "3f2a9c1d", "Fix"},
		{sdk.Record{ID: "PAY-142", Body: "first line\nsecond"}, "PAY-142", "first line"},
		{sdk.Record{ID: "group/project-with-a-long-name!12"}, "group/project-with-a-long-name!12", "group/project-with-a-long-name!12"},
		{sdk.Record{ID: "x", Title: "  many   spaces\tand\nnewlines "}, "x", "many spaces and newlines"},
		{sdk.Record{ID: "y", Title: strings.Repeat("é", 200)}, "y", strings.Repeat("é", 119) + "…"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.rec.ID), func(t *testing.T) {
			assert.Equal(t, tt.id, shortID(tt.rec.ID))
			assert.Equal(t, tt.title, title(tt.rec))
		})
	}
}

func TestAnalystAllFlaggedSaysSoOnce(t *testing.T) {
	records := manyRecords(6)
	for i := range records {
		records[i].Tier, records[i].Source = 0, "git"
	}
	out := analystDraft(t, New(), "q", "discovery", records)
	assert.Contains(t, out.Draft, "- Source tiers: all 6 records come from unknown or tier ≥ 3 sources: git\n")
	assert.NotContains(t, out.Draft, "[tier unknown", "no flag on every line")
}

// TestAnalystTalliesStatesAndNamesTheLatestFinishedRun: "is CI green?" is
// answered by the runs' states and the newest one that finished.
func TestAnalystTalliesStatesAndNamesTheLatestFinishedRun(t *testing.T) {
	run := func(n int, state string, at time.Time) sdk.Record {
		return sdk.Record{ID: fmt.Sprintf("acme/app/actions/runs/%d", n), Kind: sdk.KindPipeline, Source: "github", Tier: 1,
			Title: fmt.Sprintf("CI #%d %s on main (push)", n, state), Time: at, Fields: map[string]any{"state": state}}
	}
	records := []sdk.Record{run(3, "in_progress", day0.Add(3*time.Hour)), run(2, "failure", day0.Add(2*time.Hour)), run(1, "success", day0.Add(time.Hour))}
	out := analystDraft(t, New(), "is CI green on main?", "discovery", records)
	assert.Contains(t, out.Draft, "- States: failure (1), in_progress (1), success (1)\n")
	assert.Contains(t, out.Draft, "- Latest finished: `acme/app/actions/runs/2` CI #2 failure on main (push)", "the running one has no outcome yet")
}

// TestAnalystQuotesTheNotesOfAFewReleases: "what is in the latest
// release?" is answered by its notes; a long list names releases only.
func TestAnalystQuotesTheNotesOfAFewReleases(t *testing.T) {
	release := func(tag string, at time.Time) sdk.Record {
		return sdk.Record{ID: "acme/app@" + tag, Kind: sdk.KindRelease, Source: "github", Tier: 1, Title: "Release " + tag, Time: at,
			Body: "## Fixes\r\n\r\n- refund rounding in " + tag + "\r\n" + strings.Repeat("- more\r\n", 60), Fields: map[string]any{"state": "published"}}
	}
	out := analystDraft(t, New(), "what is in the latest release?", "discovery", []sdk.Record{release("v1.2.0", day0)})
	assert.Contains(t, out.Draft, "  > ## Fixes\n  >\n  > - refund rounding in v1.2.0\n")
	assert.Equal(t, maxNoteLines+1, strings.Count(out.Draft, "\n  >"), "the notes are bounded: 40 lines and an ellipsis")
	assert.Contains(t, out.Draft, "  > …\n")

	var many []sdk.Record
	for i := range maxNotes + 1 {
		many = append(many, release(fmt.Sprintf("v1.%d.0", i), day0.Add(time.Duration(i)*time.Hour)))
	}
	out = analystDraft(t, New(), "releases this year", "discovery", many)
	assert.NotContains(t, out.Draft, "refund rounding", "a list of releases names them only")
}
