package main

import (
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validatorSaid is what the validator said per pass, by step.
func validatorSaid(doc report.Document) []map[string]history.Finding {
	var out []map[string]history.Finding
	for _, p := range doc.History.Passes {
		m := map[string]history.Finding{}
		for _, f := range p.Validation.Findings {
			if f.Check == "validator" {
				m[f.Step] = f
			}
		}
		out = append(out, m)
	}
	return out
}

// TestAskValidatorThroughTheTemplateAgent asks through the default rules,
// whose validator is the builtin template agent, as a plugin subprocess.
func TestAskValidatorThroughTheTemplateAgent(t *testing.T) {
	const emptyWeek = "no records in the period the question names (2026-11-02 – 2026-11-08); " +
		"widening the period or dropping a filter would answer another question, so no delta is suggested"
	for _, tc := range []struct {
		name        string
		commits     map[string]string
		said        []map[string]history.Finding
		termination string
		records     int
	}{
		{
			name:    "commits in the period",
			commits: map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z"},
			said: []map[string]history.Finding{{
				"h0": {Check: "validator", Step: "h0", Severity: history.SeverityPass},
				"h2": {Check: "validator", Step: "h2", Severity: history.SeverityPass},
			}},
			termination: history.Converged, records: 1,
		},
		{
			name:    "an empty period the check looks around",
			commits: map[string]string{"Ancient fix": "2026-09-01T10:00:00Z"},
			said: []map[string]history.Finding{
				{"h0": {Check: "validator", Step: "h0", Severity: history.SeverityFail, Message: emptyWeek + " (a refinement is already pending)"}},
				{"h0": {Check: "validator", Step: "h0", Severity: history.SeverityPass}, "h2": {Check: "validator", Step: "h2", Severity: history.SeverityPass}},
			},
			termination: history.Converged, records: 1,
		},
		{
			name:    "an empty period with nothing before it",
			commits: map[string]string{"Later fix": "2026-11-09T10:00:00Z"},
			said: []map[string]history.Finding{
				{"h0": {Check: "validator", Step: "h0", Severity: history.SeverityFail, Message: emptyWeek + " (a refinement is already pending)"}},
				{"h0": {Check: "validator", Step: "h0", Severity: history.SeverityFail, Message: emptyWeek + " (no delta suggested)"},
					"h2": {Check: "validator", Step: "h2", Severity: history.SeverityPass}},
				// the analyst's gap search (no period) found nothing either
				{"h2": {Check: "validator", Step: "h2", Severity: history.SeverityPass}, "h2.s1": {Check: "validator", Step: "h2.s1", Severity: history.SeverityPass}},
			},
			// refused each pass, the run deepened to "broad" (four passes): the refinements ran out first
			termination: history.RefineLimit, records: 0,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := askRepo(t, tc.commits)
			rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
			out, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
			require.Equal(t, 0, code, stderr)
			var doc report.Document
			require.NoError(t, json.Unmarshal([]byte(out), &doc))
			assert.Equal(t, tc.said, validatorSaid(doc))
			assert.Equal(t, tc.termination, doc.History.Termination)
			assert.Len(t, doc.Result.Records, tc.records)
			if tc.records == 0 {
				assert.Equal(t, runner.ResultPartial, doc.Result.Status)
			}

			var traced int
			for _, e := range doc.Trace {
				if e.Action == "check:validator" {
					traced++
				}
			}
			said := 0
			for _, p := range tc.said {
				said += len(p)
			}
			assert.Equal(t, said, traced, "every verdict is in the trace")
		})
	}
}
