package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/engine/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultsStatsOnlyWhenShown: the default rules compute commits' line
// statistics only for what shows record fields: JSON output and an LLM
// agent (its prompt renders them); the offline text path never pays for
// them.
func TestDefaultsStatsOnlyWhenShown(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z", "Add gateway retry": "2026-11-05T15:00:00Z"})
	const q = "what changed last week?"

	out, stderr, code := runAsk(t, "--format", "json", q)
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Result.Records, 2)
	for _, r := range doc.Result.Records {
		assert.Equal(t, int64(1), asInt(r.Fields["additions"]), "JSON output shows the stats of %s", r.Title)
		assert.Equal(t, int64(1), asInt(r.Fields["files"]))
	}

	// The log directory shows no record fields with the offline agents:
	// their logged inputs and prompts carry none, so none are computed.
	logs := t.TempDir()
	_, stderr, code = runAsk(t, "--log-dir", logs, q)
	require.Equal(t, 0, code, stderr)
	calls, err := filepath.Glob(filepath.Join(logs, "*", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, calls)
	for _, c := range calls {
		b, err := os.ReadFile(c)
		require.NoError(t, err)
		assert.NotContains(t, string(b), `"additions"`, c)
	}

	// The source's own configuration: no stats offline, stats when the
	// agents are an LLM's.
	code, out, stderr = runCLI(t, "", "fetch", "gitlab", "--format", "jsonl")
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, out, `"additions"`)
	t.Setenv("OPENAI_API_KEY", "sk-test-not-used")
	code, out, stderr = runCLI(t, "", "fetch", "generic", "--format", "jsonl")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `"additions"`)
}

// asInt reads a JSON number decoded into any.
func asInt(v any) int64 {
	switch x := v.(type) {
	case float64:
		return int64(x)
	case int64:
		return x
	}
	return -1
}
