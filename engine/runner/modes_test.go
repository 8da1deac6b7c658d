package runner

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/history"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStrictModeNoValidSources(t *testing.T) {
	rs := loadRules(t, retrievalCheck)
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"forum": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
			return []sdk.Record{{ID: "p1", Source: "forum"}, {ID: "p2", Source: "forum"}}, nil
		},
	}}
	plan := buildPlan(rs, "verify the outage", "strict", nil,
		stepSpec{id: "h0", desc: "Retrieve posts", action: "retrieve", retrieve: []planSpec{{source: "forum"}}},
		stepSpec{id: "h1", desc: "Answer", action: "agent", role: "writer", deps: []string{"h0"}},
	)
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
	require.Error(t, err)
	assert.True(t, IsNoValidSources(err))
	assert.Contains(t, err.Error(), "no valid sources")
	assert.Equal(t, ResultFailed, res.Status)
	assert.Equal(t, history.Failed, res.History.Termination)
	assert.Contains(t, res.Error, "no valid sources")
	assert.Equal(t, engine.StatusFailed, res.Steps[0].Status)
}

func TestDiscoveryFlagsAndMonitorGroups(t *testing.T) {
	rs := loadRules(t, "")
	src := &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"git": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return commits(1), nil },
		"forum": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) {
			return []sdk.Record{{ID: "p1", Body: "rumour"}}, nil
		},
	}}
	mk := func(mode string) *engine.Plan {
		return buildPlan(rs, "q", mode, nil, stepSpec{id: "h0", desc: "r", action: "retrieve", retrieve: []planSpec{{source: "git", priority: 9}, {source: "forum", priority: 1}}})
	}
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), mk("discovery"))
	require.NoError(t, err)
	require.Len(t, res.Records, 2)
	assert.Equal(t, "[Tier 5 | social] rumour", res.Records[1].Body, "a record without source gets the source's name")
	assert.Equal(t, 1, res.History.Passes[0].Steps[0].Flagged)

	res, err = New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), mk("monitor"))
	require.NoError(t, err)
	require.Len(t, res.Groups, 2)
	assert.Equal(t, []string{"c1"}, res.Groups[0].Records)
	assert.Equal(t, []string{"p1"}, res.Groups[1].Records)
}

func TestTransforms(t *testing.T) {
	rs := loadRules(t, "")
	recs := []sdk.Record{
		{ID: "a", Source: "git", Title: "docs typo", Time: fixedNow.Add(-48 * time.Hour), Author: "bob", Kind: "commit", Fields: map[string]any{"project": "acme/web"}},
		{ID: "b", Source: "git", Title: "payments retry", Time: fixedNow.Add(-72 * time.Hour), Author: "alice", Kind: "commit", Fields: map[string]any{"project": "acme/pay"}},
		{ID: "c", Source: "git", Title: "payments refund", Time: fixedNow.Add(-30 * 24 * time.Hour), Author: "alice", Kind: "issue", Fields: map[string]any{"project": "acme/pay"}},
	}
	ents := map[string][]string{"dates": {"last week"}, "projects": {"acme/pay"}}
	for _, tt := range []struct {
		action string
		ids    []string // kept records
		text   string
	}{
		{"filter", []string{"b"}, "kept 1 of 3 record(s)"},
		{"rank", []string{"b", "c", "a"}, "ranked 3 record(s) by BM25 relevance to 1 query term(s)"},
		{"aggregate", []string{"a", "b", "c"}, "aggregated 3 record(s): by kind commit 2, issue 1; by source git 3"},
		{"stats", []string{"a", "b", "c"}, "3 record(s); kinds: commit 2, issue 1; sources: git 3; authors: alice 2, bob 1"},
	} {
		t.Run(tt.action, func(t *testing.T) {
			plan := buildPlan(rs, "payments changes last week", "discovery", ents,
				stepSpec{id: "h0", desc: "r", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
				stepSpec{id: "h1", desc: "t", action: tt.action, deps: []string{"h0"}})
			res, err := New(gitSource(recs), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
			require.NoError(t, err)
			st := res.Steps[1]
			assert.Equal(t, tt.text, st.Output)
			assert.Equal(t, len(tt.ids), st.Records)
		})
	}
}
