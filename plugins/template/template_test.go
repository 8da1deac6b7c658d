package template

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

func TestDescribe(t *testing.T) {
	info, err := New().Describe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "template", info.Name)
	assert.Equal(t, []string{"analyst", "clarification", "critic", "validator", "writer"}, info.Roles)
	assert.True(t, json.Valid(info.ConfigSchema))
}

func TestConfigure(t *testing.T) {
	tests := []struct {
		name      string
		config    string
		wantErr   bool
		wantPaths []string
		want      Config
	}{
		{name: "empty keeps defaults", config: ``, want: Config{MaxItems: 20, Language: "en"}},
		{name: "null keeps defaults", config: `null`, want: Config{MaxItems: 20, Language: "en"}},
		{name: "both keys", config: `{"max_items":3,"language":"zh"}`, want: Config{MaxItems: 3, Language: "zh"}},
		{name: "unknown key warns", config: `{"max_items":5,"colour":"red"}`, wantPaths: []string{"colour"}, want: Config{MaxItems: 5, Language: "en"}},
		{name: "zero max_items", config: `{"max_items":0}`, wantErr: true, wantPaths: []string{"max_items"}, want: Config{MaxItems: 20, Language: "en"}},
		{name: "string max_items", config: `{"max_items":"ten"}`, wantErr: true, wantPaths: []string{"max_items"}, want: Config{MaxItems: 20, Language: "en"}},
		{name: "unknown language", config: `{"language":"fr","max_items":-1}`, wantErr: true, wantPaths: []string{"language", "max_items"}, want: Config{MaxItems: 20, Language: "en"}},
		{name: "not an object", config: `[1,2]`, wantErr: true, wantPaths: []string{""}, want: Config{MaxItems: 20, Language: "en"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New()
			diags, err := a.Configure(context.Background(), json.RawMessage(tt.config))
			require.NoError(t, err)
			assert.Equal(t, tt.wantErr, diags.HasErrors(), "%+v", diags)
			var paths []string
			for _, d := range diags {
				paths = append(paths, d.Path)
				assert.NotEmpty(t, d.Summary)
			}
			assert.Equal(t, tt.wantPaths, paths)
			assert.Equal(t, tt.want, *a.cfg.Load(), "a configuration with errors is not applied")
		})
	}
}

func TestInvokeRejectsBadRequests(t *testing.T) {
	tests := []struct {
		name, role, input, wantMsg string
	}{
		{"unknown role", "poet", `{}`, `unknown role "poet"`},
		{"analyst input not an object", "analyst", `[1]`, "analyst input"},
		{"critic draft not a string", "critic", `{"draft":7}`, "critic input"},
		{"writer review not an object", "writer", `{"review":"PASS"}`, "writer input"},
		{"clarification malformed JSON", "clarification", `{"query":`, "clarification input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New().Invoke(context.Background(), sdk.InvokeRequest{Role: tt.role, Input: json.RawMessage(tt.input)})
			require.Error(t, err)
			assert.ErrorIs(t, err, sdk.ErrBadRequest)
			assert.Contains(t, err.Error(), tt.wantMsg)
		})
	}
}

func TestInvokeHonoursCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New().Invoke(ctx, sdk.InvokeRequest{Role: sdk.RoleAnalyst, Input: json.RawMessage(`{}`)})
	assert.ErrorIs(t, err, sdk.ErrDeadline)
}

// TestDeterministic runs every role on shuffled copies of the same records:
// the output must not depend on record order, map order or the clock.
func TestDeterministic(t *testing.T) {
	records := append(fixtureRecords(), manyRecords(30)...)
	run := func(rs []sdk.Record) [][]byte {
		a := New()
		var draft sdk.AnalystOutput
		outs := [][]byte{invoke(t, a, sdk.RoleAnalyst, sdk.AnalystInput{Query: "what changed?", Mode: "discovery"}, rs, &draft)}
		var rv sdk.CriticOutput
		outs = append(outs, invoke(t, a, sdk.RoleCritic, sdk.CriticInput{Draft: draft.Draft, Mode: "discovery"}, rs, &rv))
		var w sdk.WriterOutput
		outs = append(outs, invoke(t, a, sdk.RoleWriter, sdk.WriterInput{Draft: draft.Draft, Review: &rv, Mode: "discovery"}, rs, &w))
		var c sdk.ClarificationOutput
		outs = append(outs, invoke(t, a, sdk.RoleClarification, sdk.ClarificationInput{Query: "status?", AmbiguityType: "project"}, rs, &c))
		return outs
	}
	want := run(records)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 5 {
		shuffled := slices.Clone(records)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := run(shuffled)
		for role := range want {
			assert.Equal(t, string(want[role]), string(got[role]), "shuffle %d, output %d", i, role)
		}
	}
}
