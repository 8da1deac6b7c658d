package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultDepthOfQuestions(t *testing.T) {
	p := defaultPlanner(t)
	tests := []struct {
		query string
		depth string
		level int
	}{
		{"hello", "direct", 1},
		{"what changed last week?", "direct", 1},
		{"what is the status of the project?", "focused", 2},
		{"how many commits did alice make in 2024?", "standard", 3},
		{"verify the release notes", "standard", 3},
		{"what is the status of the project and who changed the code since v2.20.0, and are there open issues?", "broad", 4},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			pl := plan(t, p, engine.Request{Query: tt.query})
			require.NotNil(t, pl.Profile)
			assert.Equal(t, tt.depth, pl.Profile.Depth.Name)
			assert.Equal(t, tt.level, pl.Profile.Depth.Level)
			assert.Empty(t, pl.Errors())
		})
	}
}

func TestProfileDimensions(t *testing.T) {
	pl := plan(t, defaultPlanner(t), engine.Request{Query: "what is the status of the project and who changed the code since v2.20.0, and are there open issues?"})
	require.NotNil(t, pl.Profile)
	assert.Equal(t, engine.Dimensions{Words: 19, Intents: 3, Entities: 2, Constraints: 2, Hypotheses: 9, AgentSteps: 3, Retrievals: 4, Sources: 2}, pl.Profile.Dimensions)
	assert.Equal(t, engine.Depth{Level: 4, Name: "broad", MaxPasses: 4, TTL: 90 * time.Second, MaxRecords: 1500}, pl.Profile.Depth)
	assert.Contains(t, pl.Profile.Reason, `depth "broad": when = `)
}

const depthRules = `
loop {
  max_passes = 3
  ttl = "60s"
}
intent "one" {
  detect {
    when = "query contains 'one'"
    confidence = 0.9
  }
  hypothesis "a" {
    description = "a"
  }
}
intent "two" {
  detect {
    when = "query contains 'two'"
    confidence = 0.9
  }
  hypothesis "a" {
    description = "a"
  }
}
profile {
  deepen = "pass.need_refinement > 0"
  ease   = "pass.failed == 0 && pass.records > 10"
}
depth "low" {
  level = 1
  max_passes = 1
}
depth "mid" {
  level = 2
  when = "profile.intents >= 2"
  max_passes = 2
  ttl = "30s"
}
depth "high" {
  level = 3
  when = "profile.intents >= 2 && query contains 'deep'"
}
`

func TestDepthIsTheHighestLevelWhoseWhenHolds(t *testing.T) {
	p := parsePlanner(t, depthRules)
	tests := []struct {
		query, depth, reason string
	}{
		{"one", "low", "the floor: no higher level's when holds"},
		{"one two", "mid", `depth "mid": when = "profile.intents >= 2"`},
		{"one two deep", "high", `depth "high": when = "profile.intents >= 2 && query contains 'deep'"`},
		{"one deep", "low", "the floor: no higher level's when holds"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			pl := plan(t, p, engine.Request{Query: tt.query})
			require.NotNil(t, pl.Profile)
			assert.Equal(t, tt.depth, pl.Profile.Depth.Name)
			assert.Equal(t, tt.reason, pl.Profile.Reason)
		})
	}
	high := plan(t, p, engine.Request{Query: "one two deep"}).Profile.Depth
	assert.Equal(t, engine.Depth{Level: 3, Name: "high", MaxPasses: 3, TTL: 60 * time.Second, MaxRecords: 1000}, high, "an unset budget is the loop's")
}

func TestNoDepthLevelsNoProfile(t *testing.T) {
	p := parsePlanner(t, "intent \"one\" {\n  detect {\n    when = \"true\"\n  }\n}\n")
	pl, err := p.Plan(context.Background(), engine.Request{Query: "anything"})
	require.NoError(t, err)
	assert.Nil(t, pl.Profile, "without depth levels the loop block alone bounds the run")
}

func TestFailingDepthConditionIsADiagnostic(t *testing.T) {
	p := parsePlanner(t, "intent \"one\" {\n  detect {\n    when = \"true\"\n  }\n}\ndepth \"low\" {\n  level = 1\n}\ndepth \"odd\" {\n  level = 2\n  when = \"entities['paths'][5] == 'x'\"\n}\n")
	pl := plan(t, p, engine.Request{Query: "anything"})
	require.NotNil(t, pl.Profile)
	assert.Equal(t, "low", pl.Profile.Depth.Name, "a failing condition counts as false")
	require.Len(t, pl.Errors(), 1)
	assert.Equal(t, "condition_error", pl.Errors()[0].Code)
	assert.Contains(t, pl.Errors()[0].Message, `when of depth "odd"`)
}

func TestReassessMovesAtMostOneLevel(t *testing.T) {
	ds := parsePlanner(t, depthRules).Policy("").Depths
	require.NotNil(t, ds)
	tests := []struct {
		name   string
		at     int
		pass   cond.Pass
		want   int
		reason string
	}{
		{"deepen from the floor", 0, cond.Pass{Number: 1, NeedRefinement: 2}, 1, `profile: deepen = "pass.need_refinement > 0"`},
		{"deepen one level only", 1, cond.Pass{Number: 2, NeedRefinement: 5, Failed: 9}, 2, `profile: deepen = "pass.need_refinement > 0"`},
		{"the top stays", 2, cond.Pass{Number: 2, NeedRefinement: 1}, 2, ""},
		{"ease", 2, cond.Pass{Number: 1, Records: 50}, 1, `profile: ease = "pass.failed == 0 && pass.records > 10"`},
		{"the floor stays", 0, cond.Pass{Number: 1, Records: 50}, 0, ""},
		{"deepen wins over ease", 1, cond.Pass{Number: 1, NeedRefinement: 1, Records: 50}, 2, `profile: deepen = "pass.need_refinement > 0"`},
		{"neither", 1, cond.Pass{Number: 1, Failed: 1}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason, err := ds.Reassess(&cond.ProfileEnv{Profile: &cond.Profile{}, Pass: &tt.pass}, tt.at)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.reason, reason)
		})
	}
}

func TestDepthJSONRoundTrips(t *testing.T) {
	d := engine.Depth{Level: 2, Name: "mid", MaxPasses: 2, TTL: 45 * time.Second, MaxRecords: 500}
	data, err := d.MarshalJSON()
	require.NoError(t, err)
	assert.JSONEq(t, `{"level":2,"name":"mid","max_passes":2,"ttl":"45s","max_records":500}`, string(data))
	var back engine.Depth
	require.NoError(t, back.UnmarshalJSON(data))
	assert.Equal(t, d, back)
	assert.ErrorContains(t, back.UnmarshalJSON([]byte(`{"name":"x","ttl":"soon"}`)), `depth "x": ttl`)
}

// BenchmarkProfile measures the task profile and depth of a broad question
// (counting its plan, choosing among the default levels) and one
// re-assessment at a pass boundary: the target is ≤ 5 µs.
func BenchmarkProfile(b *testing.B) {
	p := defaultPlanner(b)
	pl := plan(b, p, engine.Request{Query: "what is the status of the project and who changed the code since v2.20.0, and are there open issues?"})
	ds := pl.Policy.Depths
	intents := []string{"query_status", "query_commits", "query_issues"}
	var (
		dims cond.Profile
		pass cond.Pass
	)
	env := &cond.ProfileEnv{Query: pl.Query, Mode: pl.Mode, IntentTypes: intents, Entities: pl.Reasoning.Entities, Profile: &dims, Pass: &pass}
	b.ReportAllocs()
	for b.Loop() {
		dims, pass = cond.Profile(engine.Measure(pl)), cond.Pass{}
		at, _, err := ds.Choose(env)
		if err != nil || at != 3 {
			b.Fatal(at, err)
		}
		pass = cond.Pass{Number: 1, NeedRefinement: 1, Failed: 1}
		if _, _, err := ds.Reassess(env, at); err != nil {
			b.Fatal(err)
		}
	}
}
