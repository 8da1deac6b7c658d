package session

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func defaultPlanner(t testing.TB) *engine.Planner {
	rs, diags := rules.LoadFS(examples.DefaultRules(), rules.WithEnv(map[string]string{}))
	require.False(t, diags.HasErrors(), diags.Error())
	return engine.NewPlanner(rs)
}

var (
	lastWeekSince = time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	lastWeekUntil = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
)

// earlier is a session whose last turn asked about commits last week.
func earlier() *Session {
	return &Session{Version: fileVersion, ID: "t1", Turns: []Turn{{
		Query: "what changed last week?", Intents: []engine.Intent{{Type: "query_commits", Confidence: 0.9}},
		Entities: map[string][]string{"dates": {"last week"}}, Since: lastWeekSince, Until: lastWeekUntil,
	}}}
}

// hclwriteIn2025 is a session whose last turn asked about hclwrite in 2025.
func hclwriteIn2025() *Session {
	return &Session{Version: fileVersion, ID: "t1", Turns: []Turn{{
		Query: "what changed in hclwrite in 2025?", Intents: []engine.Intent{{Type: "query_commits", Confidence: 0.9}},
		Entities: map[string][]string{"dates": {"in 2025"}, "paths": {"hclwrite"}},
		Since:    time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	}}}
}

func TestFollowUpRequest(t *testing.T) {
	p := defaultPlanner(t)
	commits := []engine.Intent{{Type: "query_commits", Confidence: 0.9}}
	tookCommits := engine.Constraint{Key: engine.CarriedIntent, Value: "query_commits"}
	tookLastWeek := engine.Constraint{Key: "dates", Value: "2026-11-16..2026-11-22", Phrase: "last week"}
	tests := []struct {
		name     string
		session  *Session
		query    string
		intents  []engine.Intent     // nil: detected from the question
		entities map[string][]string // nil: extracted from the question
		carried  []engine.Constraint // nil with follow: false
		follow   bool
	}{
		{"a new session", &Session{ID: "t1"}, "and the week before?", nil, nil, nil, false},
		{"the week before moves the period", earlier(), "and the week before?", commits,
			map[string][]string{"dates": {"2026-11-09..2026-11-15"}},
			[]engine.Constraint{tookCommits, {Key: "dates", Value: "2026-11-09..2026-11-15", Phrase: "the week before", Reason: "from 2026-11-16 – 2026-11-22"}}, true},
		{"the month after", earlier(), "and the month after?", commits,
			map[string][]string{"dates": {"2026-11-23..2026-12-22"}},
			[]engine.Constraint{tookCommits, {Key: "dates", Value: "2026-11-23..2026-12-22", Phrase: "the month after", Reason: "from 2026-11-16 – 2026-11-22"}}, true},
		{"before that keeps the length", earlier(), "and before that?", commits,
			map[string][]string{"dates": {"2026-11-09..2026-11-15"}},
			[]engine.Constraint{tookCommits, {Key: "dates", Value: "2026-11-09..2026-11-15", Phrase: "before that", Reason: "from 2026-11-16 – 2026-11-22"}}, true},
		{"a path narrows, the rest is kept", earlier(), "only in hclwrite", commits,
			map[string][]string{"paths": {"hclwrite"}, "dates": {"2026-11-16..2026-11-22"}},
			[]engine.Constraint{tookCommits, tookLastWeek}, true},
		{"its own period wins", earlier(), "and in October 2026?", commits,
			map[string][]string{"dates": {"in October 2026"}},
			[]engine.Constraint{tookCommits}, true},
		{"its own intent wins, the period is kept", earlier(), "and how many?", nil,
			map[string][]string{"dates": {"2026-11-16..2026-11-22"}},
			[]engine.Constraint{tookLastWeek}, true},
		{"a new question is not a follow-up", earlier(), "how many open issues are there?", nil, nil, nil, false},
		{"another path replaces the earlier one", hclwriteIn2025(), "what about hclsyntax?", commits,
			map[string][]string{"paths": {"hclsyntax"}, "topics": {"hclsyntax"}, "dates": {"2025-01-01..2025-12-31"}},
			[]engine.Constraint{tookCommits, {Key: "dates", Value: "2025-01-01..2025-12-31", Phrase: "in 2025"}}, true},
		{"a year of its own replaces the period, the path is kept", hclwriteIn2025(), "what about 2024?", commits,
			map[string][]string{"dates": {"about 2024"}, "paths": {"hclwrite"}},
			[]engine.Constraint{tookCommits, {Key: "paths", Value: "hclwrite"}}, true},
		{"a greeting is not continued", &Session{ID: "t1", Turns: []Turn{{Query: "hello", Intents: []engine.Intent{{Type: "conversation", Confidence: 0.9}}}}},
			"who worked on hclsyntax?", nil, map[string][]string{"paths": {"hclsyntax"}},
			[]engine.Constraint{{Key: engine.CarriedIntent, Phrase: "intent conversation", Reason: "session.not_inherited: the question is read on its own"}}, true},
		{"nothing to move", &Session{ID: "t1", Turns: []Turn{{Query: "what changed?", Intents: commits}}}, "and the week before?", commits,
			map[string][]string{}, []engine.Constraint{tookCommits, {Key: "dates", Phrase: "the week before", Reason: "the earlier question has no closed period to move"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := Request(context.Background(), p, tt.session, tt.query, "")
			require.NoError(t, err)
			assert.Equal(t, tt.query, req.Query)
			if !tt.follow {
				assert.Nil(t, req.FollowUp)
				assert.Nil(t, req.Intents)
				assert.Nil(t, req.Entities, "the question's own entities are extracted as usual")
				return
			}
			require.NotNil(t, req.FollowUp)
			assert.Equal(t, engine.FollowUp{Session: "t1", Turn: 1, Query: tt.session.Last().Query, Carried: tt.carried}, *req.FollowUp)
			assert.Equal(t, tt.intents, req.Intents)
			assert.Equal(t, tt.entities, req.Entities)
		})
	}
}

func TestFollowUpPlansAndInterpretsTheMovedPeriod(t *testing.T) {
	p := defaultPlanner(t)
	req, err := Request(context.Background(), p, earlier(), "and the week before?", "")
	require.NoError(t, err)
	plan, err := p.Interpret(context.Background(), req, nil, lastWeekUntil.Add(36*time.Hour))
	require.NoError(t, err)
	require.Empty(t, plan.Errors())
	assert.Equal(t, "query_commits", plan.Reasoning.Intents[0].Type)
	require.NotNil(t, plan.Interpretation.Dates)
	assert.Equal(t, time.Date(2026, 11, 9, 0, 0, 0, 0, time.UTC), plan.Interpretation.Dates.Since)
	assert.Equal(t, lastWeekSince, plan.Interpretation.Dates.Until)
	assert.Equal(t, req.FollowUp, plan.Interpretation.FollowUp)
}

func TestRulesWithoutFollowUpNeverCarry(t *testing.T) {
	rs, diags := rules.Parse("r.hcl", []byte(`intent "fallback" {
  hypothesis "h" {}
}`))
	require.False(t, diags.HasErrors(), diags.Error())
	req, err := Request(context.Background(), engine.NewPlanner(rs), earlier(), "and the week before?", "")
	require.NoError(t, err)
	assert.Equal(t, engine.Request{Query: "and the week before?"}, req)
}

// askedJeff is a session whose last turn asked back which Jeff.
func askedJeff() *Session {
	return &Session{Version: fileVersion, ID: "t1", Turns: []Turn{{
		Query: "what did Jeff change last week?", Status: "needs_clarification", Intents: []engine.Intent{{Type: "query_commits", Confidence: 0.9}},
		Entities: map[string][]string{"authors": {"Jeff King", "Jeff Hostetler"}, "dates": {"last week"}}, Since: lastWeekSince, Until: lastWeekUntil,
		Asked: &engine.Ambiguity{Type: engine.AmbiguityMultipleMatches, Entity: "authors", Value: "Jeff", Message: `"Jeff" matches 2 people in gitlab`,
			Candidates: []string{"Jeff King", "Jeff Hostetler"}, Blocking: true},
	}}}
}

func TestFollowUpAnswersAClarification(t *testing.T) {
	p := defaultPlanner(t)
	why := `asked back: "Jeff" matches 2 people in gitlab`
	for _, tt := range []struct {
		query, want string
		phrase      string
	}{
		{query: "Jeff Hostetler", want: "Jeff Hostetler"},
		{query: "I meant jeff king", want: "Jeff King"},
		{query: "2", want: "Jeff Hostetler", phrase: "2"},
		{query: "and the week before?", want: "Jeff"}, // no choice: asked back again, not answered for both
		{query: "3", want: "Jeff"},
	} {
		t.Run(tt.query, func(t *testing.T) {
			req, err := Request(context.Background(), p, askedJeff(), tt.query, "")
			require.NoError(t, err)
			require.NotNil(t, req.FollowUp)
			assert.Equal(t, []string{tt.want}, req.Entities["authors"])
			assert.Contains(t, req.FollowUp.Carried, engine.Constraint{Key: "authors", Value: tt.want, Phrase: tt.phrase, Reason: why})
		})
	}
}
