package engine_test

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/engine"
)

// BenchmarkPlan3Intents plans three explicit intents with entities on the
// compiled default rules, choosing the mode by the mode rules (the design
// target: ≤ 10 µs, ≤ 60 allocations).
func BenchmarkPlan3Intents(b *testing.B) {
	p := defaultPlanner(b)
	req := engine.Request{
		Intents: []engine.Intent{
			{Type: "query_commits", Confidence: 0.9},
			{Type: "query_issues", Confidence: 0.85},
			{Type: "query_analytics", Confidence: 0.8},
		},
		Entities: map[string][]string{"projects": {"payments"}, "dates": {"last week"}},
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Plan(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanFromQuery also detects intents and extracts entities from
// the question with the default rules' regular expressions.
func BenchmarkPlanFromQuery(b *testing.B) {
	p := defaultPlanner(b)
	req := engine.Request{Query: "What commits were pushed to project payments last week, and how many open bugs are there?"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Plan(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewPlanner compiles the default rules for planning: templates,
// dependency lists and the run policy of every mode, once per command.
func BenchmarkNewPlanner(b *testing.B) {
	rs := defaultPlanner(b).Rules()
	b.ReportAllocs()
	for b.Loop() {
		if engine.NewPlanner(rs) == nil {
			b.Fatal("no planner")
		}
	}
}
