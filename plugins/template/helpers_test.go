package template

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// invoke runs role with input through the sdk.Agent interface and decodes the output into out.
func invoke(t testing.TB, a sdk.Agent, role string, input any, records []sdk.Record, out any) []byte {
	t.Helper()
	raw, err := json.Marshal(input)
	require.NoError(t, err)
	resp, err := a.Invoke(context.Background(), sdk.InvokeRequest{Role: role, Input: raw, Context: records})
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(resp.Output, out), "output: %s", resp.Output)
	return resp.Output
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.Equal(t, string(want), got)
}

func analystDraft(t testing.TB, a sdk.Agent, query, mode string, records []sdk.Record) sdk.AnalystOutput {
	t.Helper()
	var out sdk.AnalystOutput
	invoke(t, a, sdk.RoleAnalyst, sdk.AnalystInput{Query: query, Mode: mode}, records, &out)
	return out
}

func criticReview(t testing.TB, a sdk.Agent, draft, mode string, records []sdk.Record) sdk.CriticOutput {
	t.Helper()
	var out sdk.CriticOutput
	invoke(t, a, sdk.RoleCritic, sdk.CriticInput{Draft: draft, Query: "q", Mode: mode}, records, &out)
	return out
}

// tierAtMost keeps records of tiers 1..n, as a strict-mode filter would.
func tierAtMost(records []sdk.Record, n int) []sdk.Record {
	var out []sdk.Record
	for _, r := range records {
		if r.Tier >= 1 && r.Tier <= n {
			out = append(out, r)
		}
	}
	return out
}
