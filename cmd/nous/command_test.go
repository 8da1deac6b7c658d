package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nous changes no external system: a command is answered with what it
// would do, the first line of the report says it was not executed, and
// the answer is partial (exit 0, as any partial answer).
func TestAskCommandIsReportedNotExecuted(t *testing.T) {
	withoutTokens(t)
	const caveat = "Caveat: Not executed: close PAY-101; here is what it would do: Execute command action (step h1). nous does not change external systems."
	tests := []struct {
		name  string
		rules []string
	}{
		{"defaults", nil},
		{"example data", []string{"--rules", exampleDataRules}},
	}
	examples, err := filepath.Abs(exampleDataRules)
	require.NoError(t, err)
	tests[1].rules[1] = examples // the test runs in a repository of its own
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z"})
			out, stderr, code := runAsk(t, append(slices.Clone(tt.rules), "--format", "text", "please close PAY-101")...)
			require.Equal(t, 0, code, stderr)
			first, _, _ := strings.Cut(out, "\n")
			assert.Equal(t, caveat, first)
			assert.Contains(t, out, "Status: partial")

			out, stderr, code = runAsk(t, append(slices.Clone(tt.rules), "--format", "json", "please close PAY-101")...)
			require.Equal(t, 0, code, stderr)
			var doc report.Document
			require.NoError(t, json.Unmarshal([]byte(out), &doc))
			assert.Equal(t, runner.ResultPartial, doc.Result.Status)
			require.NotEmpty(t, doc.Result.Caveats)
			assert.Equal(t, strings.TrimPrefix(caveat, "Caveat: "), doc.Result.Caveats[0])
		})
	}
}
