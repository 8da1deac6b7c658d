package runner

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func doc(id, title, body string) sdk.Record {
	return sdk.Record{ID: id, Source: "docs", Kind: sdk.KindDocument, Title: title, Body: body}
}

// helpPlan is request_help's shape: retrieve documentation, then write;
// its retrieval is optional and ranked, on source docs.
func helpPlan(t *testing.T, query string, limit int) *engine.Plan {
	plan := buildPlan(loadRules(t, nearestCheck("before")), query, "discovery", nil,
		stepSpec{id: "h0", desc: "Retrieve documentation", action: "retrieve", retrieve: []planSpec{{source: "docs", limit: limit}}},
		stepSpec{id: "h1", desc: "Write", action: "agent", role: "writer", deps: []string{"h0"}},
	)
	plan.Retrieval.Plans[0].Kind, plan.Retrieval.Plans[0].Rank, plan.Retrieval.Plans[0].Optional = sdk.KindDocument, true, true
	return plan
}

func docsSource(recs ...sdk.Record) *fakeSources {
	return &fakeSources{fetch: map[string]func(context.Context, sdk.FetchRequest) ([]sdk.Record, error){
		"docs": func(context.Context, sdk.FetchRequest) ([]sdk.Record, error) { return recs, nil },
	}}
}

func TestRankedRetrievalKeepsTheMostRelevant(t *testing.T) {
	src := docsSource(
		doc("README.md:1", "Overview", "A tool for parsing."),
		doc("docs/install.md:1", "Install", "To install, run go install. Install once."),
		doc("docs/usage.md:1", "Usage", "After you install it, run it."),
	)
	res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), helpPlan(t, "how do I install it?", 2))
	require.NoError(t, err)
	require.Len(t, src.requests(), 1)
	assert.Zero(t, src.requests()[0].Req.Limit, "the source returns every section: the limit keeps the most relevant")
	assert.Equal(t, sdk.KindDocument, src.requests()[0].Req.Kind)
	h0 := res.History.Passes[0].Steps[0]
	assert.Equal(t, 2, h0.Records, "the two sections about installing; the overview matches no term")
	assert.Equal(t, []string{"docs/install.md:1", "docs/usage.md:1"}, recordIDs(res.Records))
	assert.Equal(t, ResultSuccess, res.Status)
}

func TestOptionalRetrievalThatFindsNothingIsPartial(t *testing.T) {
	tests := []struct {
		name, caveat, partial string
		src                   *fakeSources
	}{
		{"no documentation", `Nothing found for "Retrieve documentation": no documents found on source "docs".`, `no documents found on source "docs"`, docsSource()},
		{"none relevant", "No documentation about install found in docs's 1 document.", "No documentation about install found in docs's 1 document.",
			docsSource(doc("README.md:1", "Overview", "A tool for parsing."))},
		{"words of asking are no topic", "No documentation about hclwrite found in docs's 2 documents.", "No documentation about hclwrite found in docs's 2 documents.",
			docsSource(doc("README.md:1", "Who uses it?", "Many users use it."), doc("docs/usage.md:1", "Usage", "Use the documentation."))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			query := "how do I install it?"
			if tt.name == "words of asking are no topic" {
				query = "how do I use hclwrite with the documentation?"
			}
			plan := helpPlan(t, query, 8)
			plan.Retrieval.Plans[0].RankIgnore = []string{"use", "documentation"}
			res, err := New(tt.src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
			require.NoError(t, err)
			assert.Equal(t, ResultPartial, res.Status, "help can do without documentation: partial, not failed")
			assert.Equal(t, []string{tt.caveat}, res.Caveats)
			assert.Equal(t, engine.StatusCompleted, res.Steps[0].Status)
			assert.Equal(t, tt.partial, res.Steps[0].Partial)
		})
	}
}

func TestStepTheValidationLeftUnserved(t *testing.T) {
	unconfigured := []engine.SourceFacts{{Name: "docs", Problem: "not configured: set up docs"}}
	t.Run("optional: partial", func(t *testing.T) {
		plan := helpPlan(t, "how do I install it?", 8)
		engine.ValidatePlan(plan, unconfigured)
		src := docsSource()
		res, err := New(src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
		require.NoError(t, err)
		assert.Empty(t, src.requests(), "nothing is asked of a source that is not configured")
		assert.Equal(t, ResultPartial, res.Status)
		want := `no configured source serves document records; source "docs" is not configured: set up docs`
		assert.Equal(t, []string{"Not retrieved: Retrieve documentation — " + want + "."}, res.Caveats)
		assert.Equal(t, engine.StatusCompleted, res.Steps[0].Status)
		assert.Equal(t, "not retrieved: "+want, res.Steps[0].Partial)
		assert.Same(t, plan.Validation, res.History.PlanValidation)
		var entry *trace.Entry
		for i := range res.Trace {
			if res.Trace[i].Action == "validate_plan" {
				entry = &res.Trace[i]
			}
		}
		require.NotNil(t, entry, "the validation is a planning entry of the trace")
		assert.Equal(t, trace.Planning, entry.Stage)
		assert.Equal(t, trace.Partial, entry.Outcome)
		assert.Contains(t, entry.Evidence, "REMOVE plan0: "+want)
	})
	// An intent left with nothing to retrieve is not answered over
	// nothing: its retrieve step fails with the reason and its agents never
	// run (cmd/nous's defaults test checks its Understood line).
	t.Run("required: failed", func(t *testing.T) {
		plan := helpPlan(t, "how do I install it?", 8)
		plan.Retrieval.Plans[0].Optional = false
		engine.ValidatePlan(plan, unconfigured)
		agents := standardAgents()
		res, err := New(docsSource(), agents, Options{Clock: fixedClock}).Run(context.Background(), plan)
		require.NoError(t, err)
		assert.Equal(t, ResultFailed, res.Status, "the answer depends on it")
		assert.Equal(t, "No source is configured to answer the question.", res.Caveats[0])
		want := `not retrieved: no configured source serves document records; source "docs" is not configured: set up docs`
		assert.Equal(t, engine.StatusFailed, res.Steps[0].Status)
		assert.Equal(t, want, res.Steps[0].Error)
		assert.Equal(t, engine.StatusSkipped, res.Steps[1].Status, "the writer does not run over nothing")
		assert.Empty(t, agents.calls, "no agent is called")
	})
}

func recordIDs(recs []sdk.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}
