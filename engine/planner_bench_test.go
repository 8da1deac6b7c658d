package engine_test

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/engine"
)

// benchQuestions are questions POST /v1/plan is measured with (the
// server's BenchmarkPlanHTTP and the wrk script of issue 12).
var benchQuestions = []string{
	"what changed in this repository last week?",
	"what changed in March 2025?",
	"how many open issues are there?",
	"What commits were pushed to project payments last week, and how many open bugs are there?",
	"who contributed to plumbing/format/packfile since v1.17.0?",
	"what did Radek Simko commit in Q1 2025?",
	"which PRs labelled bug are assigned to octocat in the v2.0 milestone?",
	"is CI green on main?",
	"what about hclsyntax?",
}

// BenchmarkPlanQuestions plans each question as POST /v1/plan does:
// detection, entities, the plan and its validation against the rules'
// sources, per question and cycling through all of them ("all").
func BenchmarkPlanQuestions(b *testing.B) {
	p := defaultPlanner(b)
	facts := engine.SourceFactsFromRules(p.Rules())
	ctx := context.Background()
	run := func(b *testing.B, qs []string) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			pl, err := p.Plan(ctx, engine.Request{Query: qs[i%len(qs)]})
			if err != nil {
				b.Fatal(err)
			}
			engine.ValidatePlan(pl, facts)
			i++
		}
	}
	b.Run("all", func(b *testing.B) { run(b, benchQuestions) })
	for i, q := range benchQuestions[:2] {
		b.Run([]string{"last_week", "march"}[i], func(b *testing.B) { run(b, []string{q}) })
	}
}
