package template

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

// validatorInput is a pass as the engine sends it: retrievals with and
// without records, writers true and false to their evidence, a failure.
func validatorInput(period *sdk.TimeRange) sdk.ValidatorInput {
	return sdk.ValidatorInput{Query: "what changed in payments last week?", Mode: "discovery", Pass: 1, Period: period, Steps: []sdk.ValidatedStep{
		{ID: "h0", Hypothesis: "Retrieve commit data", Action: "retrieve", Status: "completed", Records: 3, Kinds: map[string]int{sdk.KindCommit: 3},
			Output: "retrieved 3 record(s), kept 3", Filters: map[string][]string{"dates": {"last week"}}},
		{ID: "h1", Hypothesis: "Retrieve issue data", Action: "retrieve", Status: "completed", Records: 0,
			Output: "retrieved 0 record(s), kept 0", Filters: map[string][]string{"dates": {"last week"}}},
		{ID: "h2", Hypothesis: "Format commit summary for user", Action: "agent", Role: sdk.RoleWriter, Status: "completed", Records: 3,
			Kinds: map[string]int{sdk.KindCommit: 3}, Output: "## Answer\n\n3 commits changed payments.\n\n### Commits (3)\n"},
		{ID: "h3", Hypothesis: "Format issue summary for user", Action: "agent", Role: sdk.RoleWriter, Status: "completed", Records: 3,
			Kinds: map[string]int{sdk.KindCommit: 3}, Output: "## Answer\n\n12 commits changed payments, 2 of them by alice.\n\n### Commits (12)\n"},
		{ID: "h4", Hypothesis: "Retrieve pipelines", Action: "retrieve", Status: "failed", Error: "source ci: unavailable"},
		{ID: "h5", Hypothesis: "Search for missing evidence: payments", Action: "retrieve", Status: "completed", Records: 0},
	}}
}

func TestValidatorVerdictsGolden(t *testing.T) {
	week := &sdk.TimeRange{Since: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)}
	for _, tc := range []struct {
		name   string
		period *sdk.TimeRange
	}{
		{"validator_with_period.golden.json", week},
		{"validator_without_period.golden.json", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out sdk.ValidatorOutput
			raw := invoke(t, New(), sdk.RoleValidator, validatorInput(tc.period), nil, &out)
			var pretty json.RawMessage = raw
			b, err := json.MarshalIndent(pretty, "", "  ")
			require.NoError(t, err)
			golden(t, tc.name, string(b)+"\n")

			verdicts := map[string]string{}
			for _, s := range out.Steps {
				verdicts[s.Step] = s.Verdict
			}
			want := map[string]string{"h0": sdk.VerdictValid, "h1": sdk.VerdictInvalid, "h2": sdk.VerdictValid, "h3": sdk.VerdictInvalid, "h4": sdk.VerdictUncertain, "h5": sdk.VerdictValid}
			if tc.period == nil {
				want["h1"] = sdk.VerdictValid // an empty answer to a question without a period is the answer
			}
			assert.Equal(t, want, verdicts)
		})
	}
}

func TestValidatorIsDeterministic(t *testing.T) {
	a := New()
	in := validatorInput(nil)
	var first, again sdk.ValidatorOutput
	raw1 := invoke(t, a, sdk.RoleValidator, in, nil, &first)
	raw2 := invoke(t, a, sdk.RoleValidator, in, nil, &again)
	assert.Equal(t, string(raw1), string(raw2))
}

func BenchmarkValidator(b *testing.B) {
	a := New()
	raw, err := json.Marshal(validatorInput(&sdk.TimeRange{Since: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)}))
	require.NoError(b, err)
	req := sdk.InvokeRequest{Role: sdk.RoleValidator, Input: raw}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Invoke(b.Context(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestValidatorRelevance: a ranked documentation retrieval whose sections
// are about part of the question, or none of it, is not judged valid.
func TestValidatorRelevance(t *testing.T) {
	tests := []struct {
		name, relevance string
		records         int
		want            string
	}{
		{"every term matched", "", 8, sdk.VerdictValid},
		{"some terms", `No document matches all of "builtin functions": the most relevant lacks "builtin".`, 8, sdk.VerdictUncertain},
		{"none", "No documentation about hclwrite found in expr's 119 documents.", 0, sdk.VerdictUncertain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := sdk.ValidatorInput{Query: "how do I use hclwrite?", Mode: "discovery", Pass: 1, Steps: []sdk.ValidatedStep{
				{ID: "h1", Hypothesis: "Retrieve relevant documentation and examples", Action: "retrieve", Status: "completed", Records: tt.records, Relevance: tt.relevance},
			}}
			var out sdk.ValidatorOutput
			invoke(t, New(), sdk.RoleValidator, in, nil, &out)
			require.Len(t, out.Steps, 1)
			assert.Equal(t, tt.want, out.Steps[0].Verdict)
			if tt.relevance != "" {
				assert.Contains(t, out.Steps[0].Issues[0], tt.relevance)
			}
		})
	}
}
