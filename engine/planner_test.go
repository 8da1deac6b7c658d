package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/render"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoChains has two chain intents and dependency rules that, together,
// close the cycle h0 → h1 → h2 → h3 → h0 across them.
const twoChains = `
nous {
  min_confidence = 0.3
  default_mode   = "discovery"
}
source "s" {
  plugin   = "builtin:file"
  priority = 3
}
intent "a" {
  hypothesis "x" {
    description = "a.x"
    action      = "retrieve"
  }
  hypothesis "y" { description = "a.y" }
  retrieve "r" {
    source  = "s"
    filters = ["projects"]
  }
}
intent "b" {
  hypothesis "p" { description = "b.p" }
  hypothesis "q" { description = "b.q" }
}
dependency "a_then_b" {
  when = "'a' in intent_types && 'b' in intent_types"
  from = "a.y"
  to   = "b.p"
}
dependency "b_then_a" {
  when = "entities.loop != nil"
  from = "b.q"
  to   = "a.x"
}
mode "discovery" {}
`

func TestDependencyRulesAndCycles(t *testing.T) {
	p := parsePlanner(t, twoChains)
	ab := []engine.Intent{{Type: "a", Confidence: 1}, {Type: "b", Confidence: 1}}
	tests := []struct {
		name     string
		req      engine.Request
		hyps     []hyp
		edges    map[string][]string
		diags    []string
		messages []string
	}{
		{
			name:  "no rule holds without both intents",
			req:   engine.Request{Intents: ab[:1], Entities: map[string][]string{}},
			hyps:  []hyp{{"h0", "a.x", []string{}}, {"h1", "a.y", []string{"h0"}}},
			edges: map[string][]string{"h0": {"h1"}},
			diags: []string{},
		},
		{
			name: "a rule that holds adds a cross-intent edge",
			req:  engine.Request{Intents: ab, Entities: map[string][]string{}},
			hyps: []hyp{
				{"h0", "a.x", []string{}}, {"h1", "a.y", []string{"h0"}},
				{"h2", "b.p", []string{"h1"}}, {"h3", "b.q", []string{"h2"}},
			},
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}, "h2": {"h3"}},
			diags: []string{},
		},
		{
			name: "a cycle across intents is broken at its closing edge",
			req:  engine.Request{Intents: ab, Entities: map[string][]string{"loop": {"yes"}}},
			hyps: []hyp{
				{"h0", "a.x", []string{}}, {"h1", "a.y", []string{"h0"}},
				{"h2", "b.p", []string{"h1"}}, {"h3", "b.q", []string{"h2"}},
			},
			edges:    map[string][]string{"h0": {"h1"}, "h1": {"h2"}, "h2": {"h3"}},
			diags:    []string{"warning:cycle_broken"},
			messages: []string{"dependency cycle h0 → h1 → h2 → h3 → h0 broken by removing the edge h3 → h0"},
		},
		{
			name: "intents in the other order number differently but stay acyclic",
			req:  engine.Request{Intents: []engine.Intent{ab[1], ab[0]}, Entities: map[string][]string{"loop": {"yes"}}},
			hyps: []hyp{
				{"h0", "b.p", []string{}}, {"h1", "b.q", []string{"h0"}},
				{"h2", "a.x", []string{"h1"}}, {"h3", "a.y", []string{"h2"}},
			},
			edges:    map[string][]string{"h0": {"h1"}, "h1": {"h2"}, "h2": {"h3"}},
			diags:    []string{"warning:cycle_broken"},
			messages: []string{"dependency cycle h0 → h1 → h2 → h3 → h0 broken by removing the edge h3 → h0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := plan(t, p, tt.req)
			assert.Equal(t, tt.hyps, hypotheses(got))
			assert.Equal(t, tt.edges, got.Reasoning.DependencyMap.Edges)
			assert.Equal(t, tt.diags, codes(got))
			for i, m := range tt.messages {
				assert.Equal(t, m, got.Diagnostics[i].Message)
			}
		})
	}
}

func TestCycleInsideTemplate(t *testing.T) {
	p := parsePlanner(t, `
nous { default_mode = "d" }
mode "d" {}
intent "loop" {
  pattern = "explicit"
  hypothesis "h0" {
    description = "first"
    depends_on  = ["h2"]
  }
  hypothesis "h1" {
    description = "second"
    depends_on  = ["h0"]
  }
  hypothesis "h2" {
    description = "third"
    depends_on  = ["h1"]
  }
}
`)
	got := plan(t, p, engine.Request{Intents: []engine.Intent{{Type: "loop", Confidence: 1}}})
	assert.Equal(t, []hyp{{"h0", "first", []string{}}, {"h1", "second", []string{"h0"}}, {"h2", "third", []string{"h1"}}}, hypotheses(got))
	assert.Equal(t, map[string][]string{"h0": {"h1"}, "h1": {"h2"}}, got.Reasoning.DependencyMap.Edges)
	require.Len(t, got.Diagnostics, 1)
	assert.Equal(t, "dependency cycle h0 → h1 → h2 → h0 broken by removing the edge h2 → h0", got.Diagnostics[0].Message)
}

func TestIntentResolution(t *testing.T) {
	withFallback := defaultPlanner(t)
	noFallback := parsePlanner(t, `
nous { default_mode = "d" }
mode "d" {}
intent "known" {
  hypothesis "only" { description = "the only step" }
}
`)
	tests := []struct {
		name    string
		planner *engine.Planner
		req     engine.Request
		intents []engine.Intent
		hyps    []string
		diags   []string
	}{
		{
			name:    "unknown type falls back with a warning",
			planner: withFallback,
			req:     engine.Request{Intents: []engine.Intent{{Type: "query_deployments", Confidence: 0.9}}},
			intents: []engine.Intent{{Type: "query_deployments", Confidence: 0.9}},
			hyps:    []string{"query_deployments.retrieve", "query_deployments.answer"},
			diags:   []string{"warning:unknown_intent"},
		},
		{
			name:    "unknown type without a fallback is an error and skipped",
			planner: noFallback,
			req:     engine.Request{Intents: []engine.Intent{{Type: "nope", Confidence: 0.9}, {Type: "known", Confidence: 0.5}}},
			intents: []engine.Intent{{Type: "known", Confidence: 0.5}},
			hyps:    []string{"known.only"},
			diags:   []string{"error:unknown_intent"},
		},
		{
			name:    "confidence exactly at the threshold is kept",
			planner: withFallback,
			req:     engine.Request{Intents: []engine.Intent{{Type: "conversation", Confidence: 0.3}}},
			intents: []engine.Intent{{Type: "conversation", Confidence: 0.3}},
			hyps:    []string{"conversation.respond"},
			diags:   []string{},
		},
		{
			name:    "everything below the threshold leaves an empty plan",
			planner: withFallback,
			req:     engine.Request{Intents: []engine.Intent{{Type: "conversation", Confidence: 0.29}}},
			intents: []engine.Intent{},
			hyps:    []string{},
			diags:   []string{"info:low_confidence", "warning:empty_plan"},
		},
		{
			name:    "detected from the query in declaration order",
			planner: withFallback,
			req:     engine.Request{Query: "How many bugs were closed, and which commits fixed them?"},
			intents: []engine.Intent{{Type: "query_commits", Confidence: 0.9}, {Type: "query_issues", Confidence: 0.85}, {Type: "query_analytics", Confidence: 0.8}},
			hyps: []string{"query_commits.retrieve", "query_commits.rank", "query_commits.format",
				"query_issues.retrieve", "query_issues.filter", "query_issues.format",
				"query_analytics.sources", "query_analytics.aggregate", "query_analytics.stats", "query_analytics.report"},
			diags: []string{},
		},
		{
			name:    "a query nothing detects uses the fallback",
			planner: withFallback,
			req:     engine.Request{Query: "tell me about the weather"},
			intents: []engine.Intent{{Type: "fallback", Confidence: 0.3}},
			hyps:    []string{"fallback.retrieve", "fallback.answer"},
			diags:   []string{"warning:no_intent_detected"},
		},
		{
			name:    "no query and no intents",
			planner: withFallback,
			req:     engine.Request{},
			intents: []engine.Intent{},
			hyps:    []string{},
			diags:   []string{"error:no_intents", "warning:empty_plan"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := plan(t, tt.planner, tt.req)
			assert.Equal(t, tt.intents, got.Reasoning.Intents)
			names := []string{}
			for _, h := range got.Reasoning.Hypotheses {
				names = append(names, h.Intent+"."+h.Name)
			}
			assert.Equal(t, tt.hyps, names)
			assert.Equal(t, tt.diags, codes(got))
		})
	}
}

func TestModeSelection(t *testing.T) {
	p := defaultPlanner(t)
	commits := []engine.Intent{{Type: "query_commits", Confidence: 0.9}}
	tests := []struct {
		name  string
		req   engine.Request
		mode  string
		diags []string
	}{
		{"default mode", engine.Request{Intents: commits}, "discovery", []string{}},
		{"requested mode wins", engine.Request{Intents: commits, Query: "please verify", Mode: "monitor"}, "monitor", []string{}},
		{"first mode whose when holds", engine.Request{Intents: commits, Query: "verify the commits"}, "strict", []string{}},
		{"monitor from the query", engine.Request{Intents: commits, Query: "monitor commits"}, "monitor", []string{}},
		{"unknown requested mode", engine.Request{Intents: commits, Mode: "lenient"}, "lenient", []string{"error:unknown_mode"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := plan(t, p, tt.req)
			assert.Equal(t, tt.mode, got.Mode)
			assert.Equal(t, tt.diags, codes(got))
		})
	}
}

func TestRetrievalConditionsAndSteps(t *testing.T) {
	p := parsePlanner(t, `
nous { default_mode = "d" }
mode "d" {}
source "low" {
  plugin   = "builtin:file"
  priority = 1
}
source "high" {
  plugin   = "builtin:file"
  priority = 7
}
intent "i" {
  hypothesis "think" { description = "think first" }
  hypothesis "fetch" {
    description = "fetch"
    action      = "retrieve"
  }
  hypothesis "other" {
    description = "fetch more"
    action      = "retrieve"
  }
  retrieve "always_low" { source = "low" }
  retrieve "only_with_dates" {
    source = "high"
    when   = "'dates' in entities"
  }
  retrieve "by_other" {
    source     = "high"
    hypothesis = "other"
    filters    = ["dates", "projects"]
    defaults   = { projects = ["nous"] }
  }
}
`)
	req := engine.Request{Intents: []engine.Intent{{Type: "i", Confidence: 1}}}
	got := plan(t, p, req)
	assert.Equal(t, []planView{
		{"plan0", "by_other", []string{"high"}, map[string][]string{"projects": {"nous"}}, 7, "by_other projects:nous"},
		{"plan1", "always_low", []string{"low"}, map[string][]string{}, 1, "always_low"},
	}, plans(got))
	assert.Equal(t, []string{"h2", "h1"}, []string{got.Retrieval.Plans[0].Hypothesis, got.Retrieval.Plans[1].Hypothesis})
	require.Len(t, got.Steps, 3)
	assert.Empty(t, got.Steps[0].Plans)
	assert.Equal(t, []int{1}, got.Steps[1].Plans)
	assert.Equal(t, []int{0}, got.Steps[2].Plans)
	assert.Equal(t, engine.Step{ID: "h1", Action: engine.ActionRetrieve, Plans: []int{1}}, got.Steps[1])
	assert.Equal(t, engine.ActionNone, got.Steps[0].Action, "a step that runs no plan keeps no action")

	req.Entities = map[string][]string{"dates": {"today"}}
	got = plan(t, p, req)
	assert.Equal(t, []planView{
		{"plan0", "only_with_dates", []string{"high"}, map[string][]string{}, 7, "only_with_dates"},
		{"plan1", "by_other", []string{"high"}, map[string][]string{"dates": {"today"}, "projects": {"nous"}}, 7, "by_other dates:today projects:nous"},
		{"plan2", "always_low", []string{"low"}, map[string][]string{}, 1, "always_low"},
	}, plans(got))
	assert.Equal(t, []int{0, 2}, got.Steps[1].Plans, "a step runs its plans in plan order")
}

func TestPlanIsDeterministic(t *testing.T) {
	p := defaultPlanner(t)
	for _, req := range []engine.Request{
		readInput(t, "all_intents.json"),
		readInput(t, "query.json"),
		{Query: "verify commits and open issues in project x/y this week via gitlab"},
	} {
		var first []byte
		for i := range 20 {
			var buf bytes.Buffer
			require.NoError(t, render.JSON(&buf, plan(t, p, req)))
			if i == 0 {
				first = buf.Bytes()
				continue
			}
			require.Equal(t, string(first), buf.String())
		}
	}
}

func TestPlanJSONShape(t *testing.T) {
	got := plan(t, defaultPlanner(t), readInput(t, "commits_last_week.json"))
	data, err := json.Marshal(got)
	require.NoError(t, err)
	// Filters keep the rule's order (projects before dates), edges the node order.
	assert.Contains(t, string(data), `"filters":{"projects":["proj1","proj2"],"dates":["last week"]}`)
	assert.Contains(t, string(data), `"dependency_map":{"nodes":["h0","h1","h2"],"edges":{"h0":["h1"],"h1":["h2"]}}`)
	assert.Contains(t, string(data), `"diagnostics":[]`)

	var back engine.Plan
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Equal(t, got.Retrieval, back.Retrieval)
	assert.Equal(t, got.Reasoning.DependencyMap, back.Reasoning.DependencyMap)
	again, err := json.Marshal(&back)
	require.NoError(t, err)
	assert.JSONEq(t, string(data), string(again))
}

func TestEmptyPlanJSONUsesEmptyLists(t *testing.T) {
	got := plan(t, defaultPlanner(t), engine.Request{Intents: []engine.Intent{{Type: "conversation", Confidence: 0.1}}})
	data, err := json.Marshal(got)
	require.NoError(t, err)
	for _, want := range []string{`"intents":[]`, `"hypotheses":[]`, `"nodes":[]`, `"edges":{}`, `"plans":[]`, `"queries":[]`, `"entities":{}`} {
		assert.Contains(t, string(data), want)
	}
	assert.NotContains(t, string(data), "null")
}

func TestPlanRejectsInvalidRequests(t *testing.T) {
	p := defaultPlanner(t)
	_, err := p.Plan(context.Background(), engine.Request{Intents: []engine.Intent{{Type: "query_commits", Confidence: 1.5}}})
	assert.ErrorContains(t, err, "intents[0]: confidence: 1.5 is outside [0, 1]")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.Plan(ctx, engine.Request{Query: "x"})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestPlanDoesNotModifyRequest(t *testing.T) {
	p := defaultPlanner(t)
	req := readInput(t, "all_intents.json")
	before, err := json.Marshal(req)
	require.NoError(t, err)
	plan(t, p, req)
	after, err := json.Marshal(req)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
}

// TestPlannerConcurrentUse plans from many goroutines with one planner; run
// with -race it checks the planner shares nothing mutable.
func TestPlannerConcurrentUse(t *testing.T) {
	p := defaultPlanner(t)
	req := readInput(t, "all_intents.json")
	var want bytes.Buffer
	require.NoError(t, render.JSON(&want, plan(t, p, req)))
	errs := make(chan error, 8)
	outs := make(chan string, 8)
	for range 8 {
		go func() {
			got, err := p.Plan(context.Background(), req)
			if err != nil {
				errs <- err
				return
			}
			var buf bytes.Buffer
			errs <- render.JSON(&buf, got)
			outs <- buf.String()
		}()
	}
	for range 8 {
		require.NoError(t, <-errs)
		assert.Equal(t, want.String(), <-outs)
	}
}
