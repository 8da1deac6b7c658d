package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultsStatsOnlyWhenShown: the default rules compute commits' line
// statistics only for what shows record fields: JSON output (ask's and
// fetch's); the offline text path never pays for them.
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

	// nous fetch's JSON shows record fields: it asks for them too, unless
	// the flags say otherwise.
	code, out, stderr = runCLI(t, "", "fetch", "gitlab", "--format", "jsonl")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, `"additions"`)
	code, out, stderr = runCLI(t, "", "fetch", "gitlab", "--format", "jsonl", "--filter", "with_stats=false")
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, out, `"additions"`, "a filter given is kept")
}

// TestDefaultsStatsFollowTheAgents: the default rules' git sources compute
// stats by themselves only when the agents are an LLM's, whose prompt
// renders record fields; GitLab's config has no such key.
func TestDefaultsStatsFollowTheAgents(t *testing.T) {
	for _, tt := range []struct {
		name  string
		env   map[string]string
		stats any // the git sources' config; nil: not set
	}{
		{"offline", nil, false},
		{"an OpenAI key", map[string]string{"OPENAI_API_KEY": "sk-x"}, true},
		{"an endpoint", map[string]string{"NOUS_OPENAI_BASE_URL": "http://localhost:11434/v1"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := rules.LoadFS(examples.DefaultRules(), rules.WithEnv(tt.env))
			require.False(t, diags.HasErrors(), diags.Error())
			for _, name := range []string{"gitlab", "generic"} {
				assert.Equal(t, tt.stats, rs.Source(name).Config["stats"], name)
			}
			assert.Equal(t, rs.Source("gitlab").Config, rs.Source("generic").Config, "one git process serves both")
		})
	}
	rs, diags := rules.LoadFS(examples.DefaultRules(), rules.WithEnv(map[string]string{"GITLAB_TOKEN": "glpat-x", "OPENAI_API_KEY": "sk-x"}))
	require.False(t, diags.HasErrors(), diags.Error())
	assert.NotContains(t, rs.Source("gitlab").Config, "stats", "GitLab's config has no stats")
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
