package main

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Help questions on the default rules retrieve the repository's own
// documentation, or say there is none.
func TestDefaultsHelpRetrievesTheDocumentation(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Initial import": "2026-11-03T10:00:00Z"})
	require.NoError(t, os.WriteFile("README.md", []byte("# Widget\n\nA widget library.\n\n## Installing\n\nRun `go get example.com/widget` to install it.\n\n## License\n\nMIT.\n"), 0o644))
	require.NoError(t, os.MkdirAll("docs", 0o755))
	require.NoError(t, os.WriteFile("docs/configure.md", []byte("Configuring\n===========\n\nSet WIDGET_HOME before you install plugins.\n"), 0o644))

	out, stderr, code := runAsk(t, "--format", "json", "how do I install the widget?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, runner.ResultSuccess, doc.Result.Status, doc.Result.Caveats)
	var ids []string
	for _, r := range doc.Result.Records {
		ids = append(ids, r.ID)
		assert.Equal(t, "docs", r.Source)
	}
	assert.Equal(t, []string{"README.md:5", "docs/configure.md:1", "README.md:1"}, ids, "the sections about installing, most relevant first; the license is not")

	text, _, code := runAsk(t, "how do I install the widget?")
	require.Equal(t, 0, code)
	assert.Contains(t, text, "`README.md:5` Installing — Run `go get example.com/widget` to install it.")
}

// TestDefaultsHelpAboutWhatTheDocsDoNotCover is the user check's "how do I
// use hclwrite?" in a repository whose documentation never names it: the
// words of asking match many sections, the topic none.
func TestDefaultsHelpAboutWhatTheDocsDoNotCover(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Initial import": "2026-11-03T10:00:00Z"})
	require.NoError(t, os.WriteFile("README.md", []byte("# Expr\n\nUse it to evaluate expressions.\n\n## Who uses Expr?\n\nMany users use it; see the documentation.\n"), 0o644))
	out, stderr, code := runAsk(t, "--format", "json", "how do I use hclwrite?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, runner.ResultPartial, doc.Result.Status)
	assert.Empty(t, doc.Result.Records, "no section names hclwrite")
	require.NotEmpty(t, doc.Result.Caveats)
	assert.Regexp(t, `^No documentation about hclwrite found in \S+'s 3 documents\.$`, doc.Result.Caveats[0])
	require.NotNil(t, doc.Result.Answer)
	assert.Equal(t, "Low", doc.Result.Answer.ConfidenceLevel)
}

func TestDefaultsHelpWithoutDocumentationIsPartial(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Initial import": "2026-11-03T10:00:00Z"})
	out, stderr, code := runAsk(t, "--format", "json", "how do I install the widget?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, runner.ResultPartial, doc.Result.Status, "help can do without documentation")
	require.NotEmpty(t, doc.Result.Caveats)
	assert.Regexp(t, `^No documentation about install widget found in \S+'s 1 document\.$`, doc.Result.Caveats[0], "the repository's one file says nothing about it")
	require.NotNil(t, doc.Result.Answer)
	assert.Equal(t, "Low", doc.Result.Answer.ConfidenceLevel)
	require.NotEmpty(t, doc.Result.Steps)
	assert.Equal(t, engine.StatusCompleted, doc.Result.Steps[1].Status)
	assert.NotEmpty(t, doc.Result.Steps[1].Partial)
}
