package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exampleDataRules are the default rules with the bundled example data as
// the issue tracker and the fallback's news feed: the tutorial's rules.
var exampleDataRules = filepath.Join("..", "..", "examples", "rules", "example-data")

func TestExampleDataRulesAreTheDefaultsButSources(t *testing.T) {
	defaults, err := filepath.Glob(filepath.Join("..", "..", "examples", "rules", "default", "*.hcl"))
	require.NoError(t, err)
	require.NotEmpty(t, defaults)
	for _, d := range defaults {
		name := filepath.Base(d)
		want, err := os.ReadFile(d)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(exampleDataRules, name))
		require.NoError(t, err, "examples/rules/example-data lacks %s", name)
		if name == "sources.hcl" {
			assert.NotEqual(t, string(want), string(got))
			continue
		}
		assert.Equal(t, string(want), string(got), "%s is the default file (a link to it)", name)
	}
}

func TestExampleDataRulesAnswerFromTheExampleData(t *testing.T) {
	withoutTokens(t)
	t.Run("issues", func(t *testing.T) {
		out, stderr, code := runAsk(t, "--rules", exampleDataRules, "--format", "markdown", "how many open bugs does PAY have?")
		require.Equal(t, 0, code, stderr)
		assert.Regexp(t, exampleIssueKey, out, "the example issues answer when the rules point at them")
		assert.NotContains(t, out, "is not configured")
	})
	t.Run("one intent's fixed period is not claimed by another", func(t *testing.T) {
		out, stderr, code := runAsk(t, "--rules", exampleDataRules, "--format", "markdown", "what is the status of the project? show closed issues")
		require.Equal(t, 0, code, stderr)
		issues, status, ok := strings.Cut(out, "\n- Status from ")
		require.True(t, ok, out)
		week := "2026-11-02 – 2026-11-08" // the status intent's fixed "last week"
		assert.Contains(t, issues, "examples/data/issues.jsonl with status closed: ", out)
		assert.NotContains(t, issues, week, "the closed issues were not filtered by a period")
		line, _, _ := strings.Cut(status, "\n")
		assert.Contains(t, line, week, "the status intent says its own period")
		section := out[strings.Index(out, "\n## Issues"):]
		section, _, _ = strings.Cut(section[1:], "\n## ")
		assert.NotContains(t, section, "Requested period", "the issues section claims no period")
	})
	t.Run("a period one retrieval applied is not claimed for the others", func(t *testing.T) {
		out, stderr, code := runAsk(t, "--rules", exampleDataRules, "--format", "markdown", "what is the status of the project?")
		require.Equal(t, 0, code, stderr)
		line, _, _ := strings.Cut(out[strings.Index(out, "- Status from "):], "\n")
		assert.Contains(t, line, ", period 2026-11-02 – 2026-11-08 for commits", "only the commits retrieval applied last week")
		assert.NotContains(t, line, "open, in-progress, 2026-11-02", "the open issues were not filtered by a period")
		assert.Regexp(t, `Requested period: 2026-11-02 – 2026-11-08 for commits \(\d+ of \d+ records fall in it\)`, out, "the count is of the commits only")
	})
	t.Run("strict mode keeps the tier 1-2 news", func(t *testing.T) {
		out, stderr, code := runAsk(t, "--rules", exampleDataRules, "--mode", "strict", "--format", "json", "verify the payments outage")
		require.Equal(t, 0, code, stderr)
		var doc report.Document
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		require.NotEmpty(t, doc.Result.Records)
		sites := map[string]bool{}
		for _, r := range doc.Result.Records {
			sites[r.Source] = true
			assert.True(t, r.Tier >= 1 && r.Tier <= 2, "%s is tier %d", r.Source, r.Tier)
		}
		assert.True(t, sites["中央社"], "the news file answered: %v", sites)
		assert.False(t, sites["PTT"] || sites["Dcard"], "social sources are dropped in strict mode")
	})
}
