package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jeffsRepo is a repository where two people are called Jeff.
func jeffsRepo(t *testing.T) string {
	dir := askRepo(t, map[string]string{"Initial": "2026-10-01T10:00:00Z"})
	for i, who := range [][2]string{{"Jeff King", "peff@example.test"}, {"Jeff Hostetler", "jeffhost@example.test"}, {"Jeff King", "peff@example.test"}} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)), []byte(who[0]), 0o644))
		askGit(t, dir, nil, "add", ".")
		askGit(t, dir, []string{"GIT_AUTHOR_NAME=" + who[0], "GIT_AUTHOR_EMAIL=" + who[1], "GIT_AUTHOR_DATE=2026-11-04T10:00:00Z", "GIT_COMMITTER_DATE=2026-11-04T10:00:00Z"},
			"commit", "-q", "-m", "change by "+who[0])
	}
	return dir
}

func TestAskAsksBack(t *testing.T) {
	rules := askRules(t, jeffsRepo(t), askIssues(t, askDefaultIssues...), "")
	t.Run("text: the question and its options, exit 3", func(t *testing.T) {
		out, stderr, code := runAsk(t, "--rules", rules, "what did Jeff change last week?")
		require.Equal(t, exitClarify, code, stderr)
		assert.Regexp(t, `"Jeff" matches 2 people in \S+; by commits in 2026-11-\d\d – 2026-11-\d\d: Jeff King 2, Jeff Hostetler 1: which do you mean\?`, out, "the repository, not the rules' source name; counts in the period")
		assert.Contains(t, out, "1. Jeff King\n2. Jeff Hostetler\n", "most commits first")
		assert.Contains(t, out, "Status: needs_clarification (multiple_matches: ")
		assert.NotContains(t, out, "change by", "nothing was fetched")
		assert.Empty(t, stderr)
	})
	t.Run("json carries the ambiguity and the options", func(t *testing.T) {
		out, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "what did Jeff change last week?")
		require.Equal(t, exitClarify, code, stderr)
		var doc report.Document
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		assert.Equal(t, runner.ResultNeedsClarification, doc.Result.Status)
		require.NotNil(t, doc.Result.Clarification)
		assert.Equal(t, []string{"Jeff King", "Jeff Hostetler"}, doc.Result.Clarification.Options)
		require.NotNil(t, doc.Result.Ambiguity)
		assert.Equal(t, "authors", doc.Result.Ambiguity.Entity)
		require.Len(t, doc.Plan.Ambiguities, 1)
		assert.True(t, doc.Plan.Ambiguities[0].Blocking)
		assert.Empty(t, doc.Result.Records)
		assert.Empty(t, doc.History.Passes, "no pass ran")
	})
	t.Run("nlweb: one clarification request item", func(t *testing.T) {
		out, stderr, code := runAsk(t, "--rules", rules, "--format", "nlweb", "what did Jeff change last week?")
		require.Equal(t, exitClarify, code, stderr)
		var items []report.Item
		require.NoError(t, json.Unmarshal([]byte(out), &items))
		require.Len(t, items, 1)
		so := items[0].SchemaObject
		assert.Equal(t, "ClarificationRequest", so.Type)
		require.NotNil(t, so.Clarification)
		assert.Equal(t, "multiple_matches", so.Clarification.AmbiguityType)
		assert.Equal(t, []string{"Jeff King", "Jeff Hostetler"}, so.Clarification.Options)
		assert.Contains(t, items[0].Description, "1. Jeff King")
	})
	t.Run("a command with nothing to act on", func(t *testing.T) {
		out, stderr, code := runAsk(t, "--rules", rules, "please close it")
		require.Equal(t, exitClarify, code, stderr)
		assert.Contains(t, out, `What should "please close it" act on? It names no targets.`)
	})
	t.Run("one Jeff runs", func(t *testing.T) {
		out, stderr, code := runAsk(t, "--rules", rules, "what did Jeff Hostetler change last week?")
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, out, "change by Jeff Hostetler")
		assert.NotContains(t, out, "change by Jeff King")
	})
}
