package main

import (
	"encoding/json"
	"net"
	"testing"

	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refusingEndpoint returns a base URL on which nothing listens: every
// connection is refused.
func refusingEndpoint(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return "http://" + addr + "/v1"
}

func TestAskWithAnUnreachableLLMFallsBackToTheTemplateAgent(t *testing.T) {
	repo := askRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add gateway retry": "2026-11-05T15:00:00Z"})
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), "")
	t.Setenv("NOUS_OPENAI_BASE_URL", refusingEndpoint(t))
	t.Setenv("OPENAI_API_KEY", "sk-test-unreachable-4242")

	out, stderr, code := runAsk(t, "--rules", rules, "--format", "json", "which commits were pushed last week?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc), stderr)
	assert.Equal(t, runner.ResultSuccess, doc.Result.Status, doc.Result.Error)
	assert.Contains(t, doc.Result.Report, "Fix refund rounding", "the template agent wrote the report")
	assert.Contains(t, doc.Result.Report, "Add gateway retry")
	assert.Contains(t, stderr, `nous: warning: agent "analyst" (builtin:openai) is unreachable, so builtin:template answers in its place:`)
	assert.Contains(t, stderr, "could not be reached")
	assert.Contains(t, doc.Result.Caveats, `Agent "analyst" (builtin:openai) could not be reached, so the fallback builtin:template answered in its place.`)
	assert.NotContains(t, out+stderr, "sk-test-unreachable-4242")
}
