package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exampleIssueKey matches the keys of the bundled example issues
// (examples/data/issues.jsonl), which the default rules must never show.
var exampleIssueKey = regexp.MustCompile(`\b(PAY|SHOP|OPS)-\d+\b`)

const youtrackNotConfigured = `source "youtrack" is not configured: set YOUTRACK_URL and YOUTRACK_TOKEN (or GITLAB_TOKEN to use GitLab issues)`

// withoutTokens clears every variable the default rules switch on, so they
// run as on a machine with nothing configured.
func withoutTokens(t testing.TB) {
	t.Helper()
	for _, name := range []string{"GITLAB_TOKEN", "GITLAB_URL", "CI_SERVER_URL", "YOUTRACK_TOKEN", "YOUTRACK_URL", "GITHUB_TOKEN", "GH_TOKEN", "GITHUB_API_URL", "GITHUB_SERVER_URL", "OPENAI_API_KEY", "NOUS_OPENAI_BASE_URL", "NOUS_PLUGIN_DIR"} {
		t.Setenv(name, "")
	}
}

// inRepo makes a repository of commits the working directory, where the
// default rules find it (path = ".").
func inRepo(t *testing.T, commits map[string]string) {
	t.Helper()
	repo := askRepo(t, commits)
	t.Chdir(repo)
}

func TestDefaultsWithoutATrackerSayHowToConfigureOne(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add gateway retry": "2026-11-05T15:00:00Z"})

	for _, format := range []string{"text", "markdown", "json"} {
		t.Run(format, func(t *testing.T) {
			out, stderr, code := runAsk(t, "--format", format, "how many open bugs are there?")
			require.Equal(t, 1, code, "a bug count with no tracker has nothing to answer from: %s", stderr)
			assert.Contains(t, stderr, youtrackNotConfigured, "the reason is on stderr")
			if format != "json" { // JSON escapes the quotes; its steps are checked below
				assert.Contains(t, out, youtrackNotConfigured)
			}
			assert.NotRegexp(t, exampleIssueKey, out+stderr, "no example issue poses as the user's")
			assert.NotContains(t, out, "youtrack.example.com")
			if format == "json" {
				var doc report.Document
				require.NoError(t, json.Unmarshal([]byte(out), &doc))
				assert.Equal(t, runner.ResultFailed, doc.Result.Status, "no source answers a bug count")
				assert.Equal(t, engine.StatusFailed, doc.Result.Steps[0].Status, "the plan validation left its intent nothing to retrieve")
				assert.Contains(t, doc.Result.Steps[0].Error, youtrackNotConfigured)
				for _, st := range doc.Result.Steps {
					assert.NotEqual(t, engine.StatusCompleted, st.Status, "%s does not run over nothing", st.ID)
				}
				require.NotEmpty(t, doc.Result.Answers)
				assert.Contains(t, doc.Result.Answers[0].Result, "not answered (h0: not retrieved: no configured source serves issue records")
				require.NotNil(t, doc.Plan.Validation, "the plan shows its validation")
				assert.Equal(t, engine.OpRemove, doc.Plan.Validation.Refinements[0].Op)
				assert.Equal(t, doc.Plan.Validation, doc.History.PlanValidation, "and so does the history")
			}
		})
	}
}

func TestDefaultsFetchOfAnUnconfiguredSourceFailsFast(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	for _, args := range [][]string{{"fetch", "youtrack"}, {"fetch", "--kind", "issue", "--limit", "5", "youtrack"}} {
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errb)
		assert.Equal(t, 1, code, args)
		assert.Equal(t, "nous: fetch youtrack: "+youtrackNotConfigured+"\n", errb.String(), args)
		assert.Empty(t, out.String())
	}
}

func TestDefaultsFallbackReadsTheLocalRepository(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Rewrite the parser": "2026-11-03T10:00:00Z", "Tune the lexer": "2026-11-04T10:00:00Z"})
	out, stderr, code := runAsk(t, "--format", "json", "tell me about the parser")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.NotEmpty(t, doc.Plan.Retrieval.Plans)
	assert.Equal(t, []string{"generic"}, doc.Plan.Retrieval.Plans[0].Sources, "the fallback template answered")
	assert.Equal(t, runner.ResultSuccess, doc.Result.Status)
	assert.Contains(t, doc.Result.Report, "Rewrite the parser")
	assert.NotContains(t, doc.Result.Report, "Tune the lexer", "the topic \"parser\" reached the source")
	assert.Contains(t, doc.Result.Report, "(git, tier 1)", "the report names the local repository as the source")
	assert.NotContains(t, doc.Result.Report, "中央社", "no example news poses as the user's")
	assert.NotRegexp(t, exampleIssueKey, doc.Result.Report)
}

// TestDefaultsLintAndPluginsSkipAnUnconfiguredSource checks that a source
// no plugin serves is neither started by lint --plugins nor listed as a
// plugin's user.
func TestDefaultsLintAndPluginsSkipAnUnconfiguredSource(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Fix": "2026-11-03T10:00:00Z"})
	code, out, stderr := runCLI(t, "", "lint", "--plugins", "--format", "compact")
	assert.Equal(t, exitOK, code, "%s%s", out, stderr)
	assert.NotContains(t, out+stderr, "youtrack")

	code, out, stderr = runCLI(t, "", "plugins", "--format", "json")
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, out, `"source youtrack"`, "no plugin serves youtrack")
	assert.Contains(t, out, `"source generic"`, "the fallback's source is served by builtin:git")
}
