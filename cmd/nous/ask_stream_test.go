package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crashRules writes the default rules with "gitlab" served by the
// crashing test plugin and the issue sources by a JSON-lines file.
func crashRules(t *testing.T) string {
	t.Helper()
	dir := askRules(t, t.TempDir(), askIssues(t, askDefaultIssues...), "")
	sources := `
source "gitlab" {
  plugin   = ` + askQuote(testPlugin(t, "crashing")) + `
  priority = 10
}
source "youtrack" {
  plugin   = "builtin:file"
  priority = 10
  config   = { path = ` + askQuote(askIssues(t, askDefaultIssues...)) + ` }
}
source "generic" {
  plugin   = "builtin:file"
  priority = 5
  config   = { path = ` + askQuote(askIssues(t, askDefaultIssues...)) + ` }
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sources.hcl"), []byte(sources), 0o644))
	return dir
}

// A source whose process dies mid-stream answers in part: the records it
// sent are used, and the run is partial with a caveat that names the
// source, what it sent and how it ended.
func TestAskSourceCrashMidStreamIsPartial(t *testing.T) {
	out, stderr, code := runAsk(t, "--rules", crashRules(t), "--format", "json", "which commits were pushed last week?")
	assert.Equal(t, 0, code, "partial exits 0 (README): %s", stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc), stderr)
	res := doc.Result
	assert.Equal(t, runner.ResultPartial, res.Status)
	var caveat string
	for _, c := range res.Caveats {
		if strings.Contains(c, `"gitlab"`) {
			caveat = c
		}
	}
	require.NotEmpty(t, caveat, "a caveat names the source: %q", res.Caveats)
	assert.Contains(t, caveat, "after 5 records")
	assert.Contains(t, caveat, "exit status 7")
	assert.Contains(t, caveat, "nous-plugin-crashing", "the caveat names the plugin")
	assert.Contains(t, res.Report, "Caveat: "+caveat, "the report opens with it")
	t.Log(caveat)
	var ids []string
	for _, r := range res.Records {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"c0", "c1", "c2", "c3", "c4"}, ids, "the records received are still used")
	var retrieve *runner.StepResult
	for i, s := range res.Steps {
		if s.Action == "retrieve" {
			retrieve = &res.Steps[i]
		}
	}
	require.NotNil(t, retrieve)
	assert.Equal(t, 5, retrieve.Records)
}
