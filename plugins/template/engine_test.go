package template

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/rules"
)

// TestWithTheExecutor runs a question through the default rules and the
// real executor with the template agent in every role: the output must
// pass the executor's schema checks, name the evidence, and be identical
// run to run.
func TestWithTheExecutor(t *testing.T) {
	rs, diags := rules.Load("../../examples/rules/default")
	require.False(t, diags.HasErrors(), diags.Error())
	clock := func() time.Time { return time.Date(2026, 11, 9, 12, 0, 0, 0, time.UTC) }

	run := func() *runner.Result {
		plan, err := engine.NewPlanner(rs).Plan(context.Background(), engine.Request{Query: "what commits changed payments last week?"})
		require.NoError(t, err)
		res, err := runner.New(plugintest.Records(fixtureRecords()), plugintest.OneAgent{Agent: New()}, runner.Options{Clock: clock, ExecutionID: "run-1"}).Run(context.Background(), plan)
		require.NoError(t, err)
		return res
	}
	res := run()
	t.Log(res.Report)
	require.NotNil(t, res.Answer, "status %s, error %q", res.Status, res.Error)
	assert.Contains(t, res.Report, "3f2a9c1d", "the report names the commits")
	assert.Contains(t, res.Report, "## Sources")
	assert.NotEmpty(t, res.Answer.SourcesUsed)
	for _, st := range res.Steps {
		assert.NotEqual(t, engine.StatusFailed, st.Status, "step %s: %s", st.ID, st.Error)
	}

	first, err := json.Marshal(res)
	require.NoError(t, err)
	second, err := json.Marshal(run())
	require.NoError(t, err)
	assert.Equal(t, string(first), string(second), "identical inputs, byte-identical output")
}
