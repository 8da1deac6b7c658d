package template

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/tier"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
)

// newsRecords are the example news items (examples/data/news.jsonl) as the
// file source returns them, before the engine has seen them.
func newsRecords(t *testing.T) []sdk.Record {
	t.Helper()
	f, err := os.Open("../../examples/data/news.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var out []sdk.Record
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var r sdk.Record
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		out = append(out, r)
	}
	return out
}

// engineTiers counts records by the tier the engine assigned them: tier 1–2,
// and unknown or tier ≥ 3.
func engineTiers(t *testing.T, records []sdk.Record) (high, low int) {
	t.Helper()
	for _, r := range records {
		n, ok := r.Fields[tier.FieldTier].(int64)
		require.True(t, ok, "record %s has no engine tier", r.ID)
		if n >= 1 && n <= 2 {
			high++
		} else {
			low++
		}
	}
	return high, low
}

// TestTiersAsTheEngineAssignedThem runs the example news through the engine's
// tier filter in each mode of the example-data rules, then the template
// agent's analyst, critic and writer: whatever the mode, what the agent says
// about tiers matches the tiers the engine assigned.
func TestTiersAsTheEngineAssignedThem(t *testing.T) {
	rs, diags := rules.Load("../../examples/rules/example-data")
	require.False(t, diags.HasErrors(), diags.Error())
	const query = "electricity prices"
	tests := []struct {
		mode         string
		wantTierLine func(high, low int) string
		wantWarn     []string
		notWarn      []string
	}{
		{
			mode: "monitor",
			wantTierLine: func(high, low int) string {
				return fmt.Sprintf("Mode: monitor — tier 1–2 sources: %d; unknown or tier ≥ 3 sources: %d.", high, low)
			},
			notWarn: []string{"cites only one side"},
		},
		{
			mode: "discovery",
			wantTierLine: func(high, low int) string {
				return fmt.Sprintf(" %d of %d are unknown or tier ≥ 3 and flagged:", low, high+low)
			},
			wantWarn: []string{"from unknown or tier ≥ 3 sources"},
		},
		{
			mode:         "strict",
			wantTierLine: func(int, int) string { return "Mode: strict — only tier 1–2 sources are trusted.\n" },
			notWarn:      []string{"tier ≥ 3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			p := engine.NewPlanner(rs).Policy(tt.mode)
			require.NotNil(t, p.Mode)
			require.Equal(t, tt.mode, p.Mode.Name)
			res, err := tier.Filter(p, query, newsRecords(t))
			require.NoError(t, err)
			records := res.Kept
			high, low := engineTiers(t, records)
			require.Positive(t, high)
			if tt.mode != "strict" {
				require.Positive(t, low, "the example data has low-tier sources to count")
			}

			a := New()
			_, err = a.Configure(t.Context(), []byte(`{"max_items":50}`))
			require.NoError(t, err)
			draft := analystDraft(t, a, query, tt.mode, records).Draft
			rv := criticReview(t, a, draft, tt.mode, records)
			for _, w := range tt.wantWarn {
				assert.Contains(t, rv.Critique, w)
			}
			for _, w := range tt.notWarn {
				assert.NotContains(t, rv.Critique, w)
			}
			var out sdk.WriterOutput
			invoke(t, a, sdk.RoleWriter, sdk.WriterInput{Query: query, Mode: tt.mode, Draft: draft, Review: &rv}, records, &out)
			assert.Contains(t, out.FinalReport, tt.wantTierLine(high, low))
		})
	}
}
