//go:build temporal

package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine/durable/devserver"
)

var recordDurable = flag.Bool("record-durable", false, "record testdata/durable anew: the rules, a run's history on a Temporal dev server, its report")

// The recorded run: its rules (the default rules of the day it was
// recorded, sources read from the environment), its Temporal history and
// the report it printed.
var (
	recordedRules   = filepath.Join("testdata", "durable", "rules")
	recordedHistory = filepath.Join("testdata", "durable", "history.json")
	recordedReport  = filepath.Join("testdata", "durable", "report.json")
)

const recordedSources = `# The sources of the recorded durable run, read from the environment so
# that the rules' digest does not depend on where it was recorded.
source "gitlab" {
  plugin   = "builtin:git"
  priority = 10
  config   = { path = env("NOUS_DURABLE_REPO", ".") }
}
source "youtrack" {
  plugin   = "builtin:file"
  priority = 10
  config   = { path = env("NOUS_DURABLE_ISSUES", "issues.jsonl") }
}
source "generic" {
  plugin   = "builtin:file"
  priority = 5
  config   = { path = env("NOUS_DURABLE_ISSUES", "issues.jsonl") }
}
`

// TestDurableRecordedRunReplays is the workflow's determinism check: a
// run recorded with an earlier nous must replay with this one, calling no
// plugin, to the report it printed then. It fails when the workflow would
// now make other calls in another order: a change that would break the
// runs in flight when the workers are upgraded. Such a change needs
// workflow.GetVersion, or, when no run may be in flight, -record-durable.
func TestDurableRecordedRunReplays(t *testing.T) {
	if *recordDurable {
		record(t)
	}
	replays(t, recordedRules, recordedHistory, recordedReport)
}

// TestDurableLaunchOrderRunReplays replays a run recorded by nous 44622d4,
// before inline steps settled at once: its two chains (open issues;
// issue analytics) made their agent calls one chain after the other,
// which today's runs overlap. It replays only because the workflow asks
// workflow.GetVersion which order the run was recorded in. It cannot be
// recorded anew: today's nous records the new order.
func TestDurableLaunchOrderRunReplays(t *testing.T) {
	dir := filepath.Join("testdata", "durable-launch-order")
	replays(t, filepath.Join(dir, "rules"), filepath.Join(dir, "history.json"), filepath.Join(dir, "report.json"))
}

// replays checks that the history replays with rules to the report.
func replays(t *testing.T, rules, history, report string) {
	t.Helper()
	want, err := os.ReadFile(report)
	require.NoError(t, err)
	var out, errb strings.Builder
	code := run([]string{"replay", "--rules", rules, "--format", "json", history}, strings.NewReader(""), &out, &errb)
	require.Equal(t, 0, code, errb.String())
	assert.Equal(t, string(want), out.String(), "the recorded run replays to the report it printed")
}

// record writes testdata/durable anew from a run on a dev server.
func record(t *testing.T) {
	withoutTokens(t)
	srv := devserver.Start(t)
	repo, _ := durableRepo(t)
	t.Setenv("NOUS_DURABLE_REPO", repo)
	t.Setenv("NOUS_DURABLE_ISSUES", askIssues(t, askDefaultIssues...))
	require.NoError(t, os.RemoveAll(recordedRules))
	require.NoError(t, os.MkdirAll(recordedRules, 0o755))
	defaults := filepath.Join("..", "..", "examples", "rules", "default")
	entries, err := os.ReadDir(defaults)
	require.NoError(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(defaults, e.Name()))
		require.NoError(t, err)
		if e.Name() == "sources.hcl" {
			b = []byte(recordedSources)
		}
		require.NoError(t, os.WriteFile(filepath.Join(recordedRules, e.Name()), b, 0o644))
	}
	startWorker(t, srv.HostPort, recordedRules)
	out, stderr, code := runAsk(t, "--rules", recordedRules, "--format", "json", "--temporal", srv.HostPort, "what changed in this repository last week?")
	require.Equal(t, 0, code, stderr)
	saveHistory(t, srv.HostPort, workflowOf(t, stderr), recordedHistory)
	require.NoError(t, os.WriteFile(recordedReport, []byte(out), 0o644))
}
