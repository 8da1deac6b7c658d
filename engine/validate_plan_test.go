package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validationRules have an issue source, a second one, a commit source and
// a documentation source, and a short TTL.
const validationRules = `
nous { version = 1 }
loop {
  ttl = "20s"
  max_records = 50
}
source "tracker" {
  plugin = ""
  setup  = "set TRACKER_TOKEN"
  kind   = "issue"
}
source "spare" {
  plugin   = "builtin:file"
  priority = 3
  kind     = "issue"
}
source "better" {
  plugin   = "builtin:file"
  priority = 7
  kind     = "issue"
}
source "git" { plugin = "builtin:git" }
agent "writer" {
  plugin  = "builtin:template"
  timeout = "15s"
}
agent "analyst" {
  plugin  = "builtin:template"
  timeout = "10s"
}
intent "query_issues" {
  pattern = "chain"
  hypothesis "retrieve" {
    description = "Retrieve issues"
    action      = "retrieve"
  }
  hypothesis "format" {
    description = "Format"
    action      = "agent"
    role        = "writer"
  }
  retrieve "issues" {
    description = "Retrieve issues"
    source      = "tracker"
    kind        = "issue"
    limit       = 100
  }
}
intent "query_commits" {
  pattern = "chain"
  hypothesis "retrieve" {
    description = "Retrieve commits"
    action      = "retrieve"
  }
  hypothesis "format" {
    description = "Format"
    action      = "agent"
    role        = "writer"
  }
  retrieve "commits" {
    description = "Retrieve commits"
    source      = "git"
    kind        = "commit"
  }
}
intent "request_help" {
  pattern = "chain"
  hypothesis "docs" {
    description = "Retrieve docs"
    action      = "retrieve"
  }
  hypothesis "format" {
    description = "Format"
    action      = "agent"
    role        = "analyst"
  }
}
`

func validated(t *testing.T, intent string, facts func([]engine.SourceFacts)) *engine.Plan {
	t.Helper()
	p := parsePlanner(t, validationRules)
	pl := plan(t, p, engine.Request{Intents: []engine.Intent{{Type: intent, Confidence: 0.9}}})
	sources := engine.SourceFactsFromRules(p.Rules())
	if facts != nil {
		facts(sources)
	}
	engine.ValidatePlan(pl, sources)
	return pl
}

func TestValidatePlanRebindsToAConfiguredSourceOfTheKind(t *testing.T) {
	pl := validated(t, "query_issues", nil)
	require.NotNil(t, pl.Validation)
	assert.Equal(t, []string{"better"}, pl.Retrieval.Plans[0].Sources, "the highest-priority source serving issues")
	assert.Equal(t, "better", pl.Retrieval.Queries[0].Source)
	assert.Equal(t, []engine.PlanRefinement{{Op: engine.OpReplace, Target: "plan0", Step: "h0", From: "tracker", To: "better",
		Justification: `source "tracker" is not configured: set TRACKER_TOKEN, and source "better" serves issue records`}}, pl.Validation.Refinements)
	assert.Empty(t, pl.Validation.Caveats, "a rebound retrieval still answers")
	assert.Empty(t, pl.Validation.Unserved)
}

func TestValidatePlanRemovesWhatNoSourceServes(t *testing.T) {
	pl := validated(t, "query_issues", func(s []engine.SourceFacts) {
		s[1].Problem = "unavailable: plugin crashed" // spare
		s[2].Kinds, s[2].Complete = []string{"document"}, true
	})
	require.NotNil(t, pl.Validation)
	assert.Empty(t, pl.Retrieval.Plans)
	assert.Empty(t, pl.Retrieval.Queries)
	assert.Empty(t, pl.Steps[0].Plans, "the step's index is gone with the plan")
	require.Len(t, pl.Validation.Refinements, 1)
	ref := pl.Validation.Refinements[0]
	assert.Equal(t, engine.OpRemove, ref.Op)
	assert.Equal(t, "plan0", ref.Target)
	assert.Equal(t, []string{"tracker"}, ref.Plan.Sources)
	want := `no configured source serves issue records; source "tracker" is not configured: set TRACKER_TOKEN`
	assert.Equal(t, want, ref.Justification)
	assert.Equal(t, []string{"Not retrieved: Retrieve issues — " + want + "."}, pl.Validation.Caveats)
	assert.Equal(t, map[string]string{"h0": want}, pl.Validation.Unserved)
	codes := map[string]string{}
	for _, f := range pl.Validation.Findings {
		codes[f.Code] = f.Target
	}
	assert.Equal(t, "plan0", codes["retrieval_dropped"])
	assert.Equal(t, "h0", codes["step_unserved"])
}

func TestValidatePlanRebindsOnlyToASourceForTheKind(t *testing.T) {
	pl := validated(t, "query_issues", func(s []engine.SourceFacts) {
		s[1].Problem, s[2].Problem = "unavailable", "unavailable"
		// git's plugin could read issues, but its rules declare it for commits.
		s[3].Kinds, s[3].Complete, s[3].For = []string{"commit", "issue"}, true, "commit"
	})
	require.Len(t, pl.Validation.Refinements, 1)
	assert.Equal(t, engine.OpRemove, pl.Validation.Refinements[0].Op)
}

func TestValidatePlanKinds(t *testing.T) {
	tests := []struct {
		name    string
		kinds   []string
		want    []string // the commit retrieval's sources after validation
		refined bool
	}{
		{"kinds unknown: kept", nil, []string{"git"}, false},
		{"serves commits", []string{"commit"}, []string{"git"}, false},
		{"serves others only: removed", []string{"document"}, []string{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl := validated(t, "query_commits", func(s []engine.SourceFacts) {
				s[3].Kinds, s[3].Complete = tt.kinds, tt.kinds != nil
			})
			got := []string{}
			for _, p := range pl.Retrieval.Plans {
				got = append(got, p.Sources...)
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.refined, pl.Validation != nil && len(pl.Validation.Refinements) > 0)
		})
	}
}

func TestValidatePlanSteps(t *testing.T) {
	pl := validated(t, "request_help", nil)
	require.NotNil(t, pl.Validation)
	assert.Equal(t, map[string]string{"h0": "its intent has no retrieval for it"}, pl.Validation.Unserved)
	assert.Empty(t, pl.Validation.Refinements)
}

func TestValidatePlanUndeclaredAgent(t *testing.T) {
	p := parsePlanner(t, `
nous { version = 1 }
intent "conversation" {
  hypothesis "respond" {
    description = "Respond"
    action      = "agent"
    role        = "critic"
  }
}
`)
	pl := plan(t, p, engine.Request{Intents: []engine.Intent{{Type: "conversation", Confidence: 0.9}}})
	engine.ValidatePlan(pl, nil)
	require.NotNil(t, pl.Validation)
	assert.Equal(t, []engine.PlanFinding{{Severity: engine.SeverityWarning, Code: "agent_undeclared", Target: "h0",
		Message: `h0 (Respond) runs agent "critic", which the rules do not declare`}}, pl.Validation.Findings)
}

// Timeouts are upper bounds: only an agent whose own timeout is longer than
// the TTL is a finding, never their sum along a path (writer 15s + analyst
// 10s > TTL 20s is not one).
func TestValidatePlanBudgets(t *testing.T) {
	tests := []struct {
		name string
		ttl  time.Duration
		want []engine.PlanFinding
	}{
		{"every agent fits", 20 * time.Second, nil},
		{"the writer outlasts the TTL", 12 * time.Second, []engine.PlanFinding{{Severity: engine.SeverityWarning, Code: "budget_exceeds_ttl", Target: "h1",
			Message: `agent "writer" may take up to 15s (its timeout), longer than the TTL 12s: one slow answer ends the run; raise the TTL or lower the timeout`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := parsePlanner(t, validationRules)
			pl := plan(t, p, engine.Request{Intents: []engine.Intent{{Type: "query_issues", Confidence: 0.9}}})
			pl.Policy.Limits.TTL = tt.ttl
			engine.ValidatePlan(pl, engine.SourceFactsFromRules(p.Rules()))
			require.NotNil(t, pl.Validation)
			var got []engine.PlanFinding
			for _, f := range pl.Validation.Findings {
				if f.Code == "budget_exceeds_ttl" {
					got = append(got, f)
				}
			}
			assert.Equal(t, tt.want, got)
			assert.Contains(t, pl.Validation.Findings, engine.PlanFinding{Severity: engine.SeverityInfo, Code: "limit_exceeds_max_records", Target: "plan0",
				Message: "plan0 asks for up to 100 records; a step holds max_records 50 and only counts the rest"})
		})
	}
}

func TestValidatePlanLeavesAGoodPlanAlone(t *testing.T) {
	p := defaultPlanner(t)
	pl := plan(t, p, engine.Request{Intents: []engine.Intent{{Type: "query_commits", Confidence: 0.9}}})
	before := pl.Retrieval
	sources := engine.SourceFactsFromRules(p.Rules())
	engine.ValidatePlan(pl, sources)
	assert.Equal(t, before, pl.Retrieval)
	assert.Nil(t, pl.Validation, "nothing to say: the default agents' timeouts each fit the TTL")
}

// BenchmarkValidatePlan validates the default plans of a status question
// (one retrieval removed: no tracker) and of a commit question (nothing to
// refine) against the rules' source facts. Validation refines the plan in
// place, so fresh plans are made, untimed, a batch at a time.
func BenchmarkValidatePlan(b *testing.B) {
	p := defaultPlanner(b)
	sources := engine.SourceFactsFromRules(p.Rules())
	for _, q := range []string{"what is the status of the project?", "which commits changed the parser last week?"} {
		b.Run(q, func(b *testing.B) {
			ctx := context.Background()
			batch := make([]*engine.Plan, 0, 512)
			b.ReportAllocs()
			for b.Loop() {
				if len(batch) == 0 {
					b.StopTimer()
					for range cap(batch) {
						pl, err := p.Plan(ctx, engine.Request{Query: q})
						if err != nil {
							b.Fatal(err)
						}
						batch = append(batch, pl)
					}
					b.StartTimer()
				}
				engine.ValidatePlan(batch[len(batch)-1], sources)
				batch = batch[:len(batch)-1]
			}
		})
	}
}

// TestSeed002PreExecutionRefinement: phase B of the adaptive-execution
// document refines the initial plan before the first pass with its
// RefinementAction (action_type ADD|MODIFY|REMOVE|REPLACE, target step,
// justification); nous's default status plan without a tracker is refined
// so before anything runs.
func TestSeed002PreExecutionRefinement(t *testing.T) {
	p := defaultPlanner(t)
	pl := plan(t, p, engine.Request{Query: "what is the status of the project?"})
	engine.ValidatePlan(pl, engine.SourceFactsFromRules(p.Rules()))
	require.NotNil(t, pl.Validation)
	require.NotEmpty(t, pl.Validation.Refinements)
	for _, ref := range pl.Validation.Refinements {
		assert.Contains(t, []string{"ADD", "MODIFY", "REMOVE", "REPLACE"}, ref.Op)
		assert.NotEmpty(t, ref.Step, "the target step")
		assert.NotEmpty(t, ref.Justification)
	}
	assert.Equal(t, "REMOVE", pl.Validation.Refinements[0].Op)
}
