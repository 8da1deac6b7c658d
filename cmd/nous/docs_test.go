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

func TestDefaultsHelpWithoutDocumentationIsPartial(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Initial import": "2026-11-03T10:00:00Z"})
	out, stderr, code := runAsk(t, "--format", "json", "how do I install the widget?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, runner.ResultPartial, doc.Result.Status, "help can do without documentation")
	assert.Contains(t, doc.Result.Caveats, `Nothing found for "Retrieve relevant documentation and examples": no documents found on source "docs".`)
	require.NotEmpty(t, doc.Result.Steps)
	assert.Equal(t, engine.StatusCompleted, doc.Result.Steps[1].Status)
	assert.NotEmpty(t, doc.Result.Steps[1].Partial)
}
