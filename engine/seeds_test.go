package engine_test

import (
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The source documents' hypothesis templates, exactly.
var (
	commitsHyps = []string{
		"Retrieve commit data from GitLab",
		"Filter and rank commits by relevance",
		"Format commit summary for user",
	}
	issuesHyps = []string{
		"Retrieve issue data from YouTrack",
		"Apply filters based on entities (status, date, project)",
		"Format issue summary for user",
	}
	analyticsHyps = []string{
		"Identify relevant data sources (commits, issues, metrics)",
		"Aggregate data from multiple sources",
		"Calculate statistics and trends",
		"Generate analytics report with visualizations",
	}
)

// chain returns hypotheses h{base}… depending each on the one before.
func chain(base int, descriptions ...string) []hyp {
	out := make([]hyp, len(descriptions))
	for i, d := range descriptions {
		out[i] = hyp{ID: id(base + i), Description: d, Dependencies: []string{}}
		if i > 0 {
			out[i].Dependencies = []string{id(base + i - 1)}
		}
	}
	return out
}

func id(n int) string { return "h" + itoa(n) }

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

func TestSeedReasoningStructure(t *testing.T) {
	tests := []struct {
		input string
		hyps  []hyp
		edges map[string][]string
		diags []string
	}{
		{
			input: "commits.json",
			hyps:  chain(0, commitsHyps...),
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}},
			diags: []string{},
		},
		{
			input: "issues.json",
			hyps:  chain(0, issuesHyps...),
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}},
			diags: []string{},
		},
		{
			input: "analytics.json",
			hyps:  chain(0, analyticsHyps...),
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}, "h2": {"h3"}},
			diags: []string{},
		},
		{
			input: "status.json",
			hyps: []hyp{
				{"h0", "Check system health and status", []string{}},
				{"h1", "Gather recent events and changes", []string{}},
				{"h2", "Synthesize overall status report", []string{"h0", "h1"}},
			},
			edges: map[string][]string{"h0": {"h2"}, "h1": {"h2"}},
			diags: []string{},
		},
		{
			input: "command.json",
			hyps: chain(0, "Validate command preconditions and permissions",
				"Execute command action", "Verify command execution result"),
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}},
			diags: []string{},
		},
		{
			input: "help.json",
			hyps: chain(0, "Identify help topic and user context",
				"Retrieve relevant documentation and examples", "Format helpful response with examples"),
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}},
			diags: []string{},
		},
		{
			input: "conversation.json",
			hyps:  chain(0, "Generate appropriate conversational response"),
			edges: map[string][]string{},
			diags: []string{},
		},
		{
			// Multiple intents: 6 hypotheses, globally numbered, no cross-intent edges.
			input: "multiple_intents.json",
			hyps:  append(chain(0, commitsHyps...), chain(3, issuesHyps...)...),
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}, "h3": {"h4"}, "h4": {"h5"}},
			diags: []string{},
		},
		{
			// Example 2: 3 from query_commits + 4 from query_analytics.
			input: "commits_analytics.json",
			hyps:  append(chain(0, commitsHyps...), chain(3, analyticsHyps...)...),
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}, "h3": {"h4"}, "h4": {"h5"}, "h5": {"h6"}},
			diags: []string{},
		},
		{
			input: "low_confidence.json",
			hyps:  chain(0, commitsHyps...),
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}},
			diags: []string{"info:low_confidence"},
		},
		{
			input: "low_confidence_conversation.json",
			hyps:  chain(0, commitsHyps...),
			edges: map[string][]string{"h0": {"h1"}, "h1": {"h2"}},
			diags: []string{"info:low_confidence"},
		},
	}
	p := defaultPlanner(t)
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			got := plan(t, p, readInput(t, tt.input))
			assert.Equal(t, tt.hyps, hypotheses(got))
			assert.Equal(t, tt.edges, got.Reasoning.DependencyMap.Edges)
			nodes := []string{}
			for _, h := range tt.hyps {
				nodes = append(nodes, h.ID)
			}
			assert.Equal(t, nodes, got.Reasoning.DependencyMap.Nodes)
			assert.Equal(t, tt.diags, codes(got))
		})
	}
}

func TestSeedRetrievalPlans(t *testing.T) {
	none := map[string][]string{}
	tests := []struct {
		input string
		plans []planView
	}{
		{
			input: "commits.json",
			plans: []planView{{"plan0", "Retrieve commit data from GitLab", []string{"gitlab"}, none, 10, "Retrieve commit data from GitLab"}},
		},
		{
			// Example 1: 1 plan, 1 query with the entities in the rule's order.
			input: "commit_entities.json",
			plans: []planView{{"plan0", "Retrieve commit data from GitLab", []string{"gitlab"},
				map[string][]string{"projects": {"my-repo"}, "dates": {"this week"}}, 10,
				"Retrieve commit data from GitLab projects:my-repo dates:this week"}},
		},
		{
			input: "commits_last_week.json",
			plans: []planView{{"plan0", "Retrieve commit data from GitLab", []string{"gitlab"},
				map[string][]string{"projects": {"proj1", "proj2"}, "dates": {"last week"}}, 10,
				"Retrieve commit data from GitLab projects:proj1,proj2 dates:last week"}},
		},
		{
			input: "issues_entities.json",
			plans: []planView{{"plan0", "Retrieve issue data from YouTrack", []string{"youtrack"},
				map[string][]string{"projects": {"proj-123"}, "dates": {"this month"}, "statuses": {"open", "in-progress"}}, 10,
				"Retrieve issue data from YouTrack projects:proj-123 dates:this month statuses:open,in-progress"}},
		},
		{
			// Example 2: GitLab metrics + YouTrack metrics, both priority 9.
			input: "analytics.json",
			plans: []planView{
				{"plan0", "Retrieve commit metrics from GitLab", []string{"gitlab"}, none, 9, "Retrieve commit metrics from GitLab"},
				{"plan1", "Retrieve issue metrics from YouTrack", []string{"youtrack"}, none, 9, "Retrieve issue metrics from YouTrack"},
			},
		},
		{
			input: "status.json",
			plans: []planView{
				{"plan0", "Retrieve recent commits for activity status", []string{"gitlab"},
					map[string][]string{"dates": {"last week"}}, 8, "Retrieve recent commits for activity status dates:last week"},
				{"plan1", "Retrieve open issues for health status", []string{"youtrack"},
					map[string][]string{"statuses": {"open", "in-progress"}}, 8, "Retrieve open issues for health status statuses:open,in-progress"},
			},
		},
		{
			// Example 3: both priority 10, ties in intent order.
			input: "commits_issues.json",
			plans: []planView{
				{"plan0", "Retrieve commit data from GitLab", []string{"gitlab"}, none, 10, "Retrieve commit data from GitLab"},
				{"plan1", "Retrieve issue data from YouTrack", []string{"youtrack"}, none, 10, "Retrieve issue data from YouTrack"},
			},
		},
		{
			input: "low_confidence.json",
			plans: []planView{{"plan0", "Retrieve commit data from GitLab", []string{"gitlab"}, none, 10, "Retrieve commit data from GitLab"}},
		},
		{input: "conversation.json", plans: []planView{}},
		{input: "command.json", plans: []planView{}},
		{
			// Priority sort across intents: status (8) comes after analytics (9) after commits (10).
			input: "all_intents.json",
			plans: []planView{
				{"plan0", "Retrieve commit data from GitLab", []string{"gitlab"},
					map[string][]string{"projects": {"repo1"}, "dates": {"2024-01-15"}}, 10,
					"Retrieve commit data from GitLab projects:repo1 dates:2024-01-15"},
				{"plan1", "Retrieve issue data from YouTrack", []string{"youtrack"},
					map[string][]string{"projects": {"repo1"}, "dates": {"2024-01-15"}}, 10,
					"Retrieve issue data from YouTrack projects:repo1 dates:2024-01-15"},
				{"plan2", "Retrieve commit metrics from GitLab", []string{"gitlab"},
					map[string][]string{"projects": {"repo1"}, "dates": {"2024-01-15"}}, 9,
					"Retrieve commit metrics from GitLab projects:repo1 dates:2024-01-15"},
				{"plan3", "Retrieve issue metrics from YouTrack", []string{"youtrack"},
					map[string][]string{"projects": {"repo1"}, "dates": {"2024-01-15"}}, 9,
					"Retrieve issue metrics from YouTrack projects:repo1 dates:2024-01-15"},
				// The status intent's dates are fixed by the document: not the question's.
				{"plan4", "Retrieve recent commits for activity status", []string{"gitlab"},
					map[string][]string{"dates": {"last week"}}, 8,
					"Retrieve recent commits for activity status dates:last week"},
				{"plan5", "Retrieve open issues for health status", []string{"youtrack"},
					map[string][]string{"statuses": {"open", "in-progress"}}, 8,
					"Retrieve open issues for health status statuses:open,in-progress"},
				// The document gives help no retrieval; nous retrieves the
				// repository's documentation for its "Retrieve documentation" step.
				{"plan6", "Retrieve relevant documentation and examples", []string{"docs"}, none, 5,
					"Retrieve relevant documentation and examples"},
			},
		},
		{
			input: "unknown_intent.json",
			plans: []planView{{"plan0", "Retrieve related information from all sources", []string{"generic"},
				map[string][]string{"dates": {"yesterday"}}, 5, "Retrieve related information from all sources dates:yesterday"}},
		},
	}
	p := defaultPlanner(t)
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			got := plan(t, p, readInput(t, tt.input))
			assert.Equal(t, tt.plans, plans(got))
			for i, q := range got.Retrieval.Queries {
				assert.Equal(t, got.Retrieval.Plans[i].ID+"_query", q.ID)
				assert.Equal(t, got.Retrieval.Plans[i].Sources[0], q.Source)
				assert.Equal(t, got.Retrieval.Plans[i].Filters, q.Filters)
			}
		})
	}
}

// The adaptive-reasoning document's loop validates every pass (decision 1),
// its convergence consumes the validator's output (decision 8), and
// refinements are limited to 3 per step and 10 in total (decision 10): the
// default rules call a validator agent on every pass, under those limits.
func TestSeedSemanticValidation(t *testing.T) {
	pol := defaultPlanner(t).Policy("discovery")
	require.NotNil(t, pol.Validator, "the default rules configure a validator")
	assert.Equal(t, "validator", pol.Validator.Agent)
	assert.Nil(t, pol.Validator.When, "every pass is validated")
	assert.Contains(t, pol.Agents, "validator")
	assert.Equal(t, 3, pol.Limits.RefinePerStep)
	assert.Equal(t, 10, pol.Limits.RefineTotal)
	tmpl, err := pol.Prompt(engine.RoleValidator)
	require.NoError(t, err)
	assert.NotNil(t, tmpl.Lookup("validator"), "the default prompt block parses")
}

// The adaptive-reasoning document's task profile maps a question to a
// reasoning depth of tiers 1–5 (phase A), re-assessed at pass boundaries
// (phase D), and the tier stays within ±1 (decision 6). The default rules
// define five levels; the same question always gets the same level, and a
// re-assessment moves one level however strongly its condition holds.
func TestSeedTaskProfileTiers(t *testing.T) {
	p := defaultPlanner(t)
	ds := p.Policy("discovery").Depths
	require.NotNil(t, ds)
	levels := make([]int, len(ds.Levels))
	for i, l := range ds.Levels {
		levels[i] = l.Level
	}
	assert.Equal(t, []int{1, 2, 3, 4, 5}, levels)

	q := engine.Request{Query: "what is the status of the project and who changed the code since v2.20.0, and are there open issues?"}
	first := plan(t, p, q).Profile.Depth
	for range 5 {
		assert.Equal(t, first, plan(t, p, q).Profile.Depth, "the same input, the same tier")
	}
	dims := cond.Profile{}
	for at := range ds.Levels {
		pass := cond.Pass{Number: 1, NeedRefinement: 100, Failed: 100, FailedSteps: 100}
		next, _, err := ds.Reassess(&cond.ProfileEnv{Profile: &dims, Pass: &pass}, at)
		require.NoError(t, err)
		assert.LessOrEqual(t, next-at, 1, "±1 tier at level %d", ds.Levels[at].Level)
		pass = cond.Pass{Number: 1, Records: 100}
		next, _, err = ds.Reassess(&cond.ProfileEnv{Profile: &dims, Pass: &pass}, at)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, next-at, -1, "±1 tier at level %d", ds.Levels[at].Level)
	}
}
