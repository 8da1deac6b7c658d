package engine_test

import (
	"context"
	"fmt"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
)

// Plan a question with the embedded default rules.
func ExamplePlanner_Plan() {
	rs, diags := rules.LoadFS(examples.DefaultRules())
	if diags.HasErrors() {
		panic(diags)
	}
	planner := engine.NewPlanner(rs) // compile once, plan many times
	plan, err := planner.Plan(context.Background(), engine.Request{
		Intents:  []engine.Intent{{Type: "query_commits", Confidence: 0.9}},
		Entities: map[string][]string{"projects": {"proj1", "proj2"}, "dates": {"last week"}},
	})
	if err != nil {
		panic(err)
	}
	for _, h := range plan.Reasoning.Hypotheses {
		fmt.Println(h.ID, h.Description, h.Dependencies)
	}
	for _, q := range plan.Retrieval.Queries {
		fmt.Println(q.ID, q.QueryString)
	}
	// Output:
	// h0 Retrieve commit data from GitLab []
	// h1 Filter and rank commits by relevance [h0]
	// h2 Format commit summary for user [h1]
	// plan0_query Retrieve commit data from GitLab projects:proj1,proj2 dates:last week
}
