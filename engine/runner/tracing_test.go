package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInteractionIDOnEveryEntryAndTheResult(t *testing.T) {
	rs := loadRules(t, "")
	for _, tt := range []struct{ name, given, want string }{
		{"given", "t1:2", "t1:2"},
		{"defaults to the execution", "", "run-1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New(gitSource(commits(2)), standardAgents(), Options{Clock: fixedClock, ExecutionID: "run-1", InteractionID: tt.given}).
				Run(context.Background(), commitChain(rs, "discovery"))
			require.NoError(t, err)
			assert.Equal(t, tt.want, res.InteractionID)
			require.NotEmpty(t, res.Trace)
			for _, e := range res.Trace {
				assert.Equal(t, tt.want, e.Interaction, e.ID)
			}
		})
	}
}

func TestTraceOffRecordsNothingElseUnchanged(t *testing.T) {
	// The writer's prompt shows the trace summary it is given.
	base := strings.Replace(baseRules, "{{len .Records}} records).", "{{len .Records}} records). {{.Trace}}", 1)
	run := func(extra string) (*Result, *fakeAgents) {
		rs, diags := rules.Parse("test.hcl", []byte(base+extra))
		require.False(t, diags.HasErrors(), diags.Error())
		agents := standardAgents()
		res, err := New(gitSource(commits(2)), agents, Options{Clock: fixedClock, ExecutionID: "run-1"}).Run(context.Background(), commitChain(rs, "discovery"))
		require.NoError(t, err)
		return res, agents
	}
	on, onAgents := run("")
	off, offAgents := run("reasoning_trace {\n  enabled = false\n}\n")

	assert.NotEmpty(t, on.Trace)
	assert.Empty(t, off.Trace, "no entries are recorded")
	assert.Equal(t, on.Status, off.Status)
	assert.Equal(t, on.Report, off.Report)
	assert.Equal(t, on.Pending, off.Pending)
	assert.Equal(t, on.Steps, off.Steps)
	require.NotEmpty(t, onAgents.requests("writer"))
	assert.Contains(t, onAgents.requests("writer")[0].Instructions, "Reasoning trace", "with the trace on the agents get its summary")
	for _, req := range offAgents.requests("writer") {
		assert.NotContains(t, req.Instructions, "Reasoning trace")
	}
}
