package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// authorSource grounds every author term to answer, and keeps the
// requests it was asked.
type authorSource struct {
	answer sdk.GroundedTerm
	asked  []sdk.GroundRequest
}

func (a *authorSource) Ground(_ context.Context, _ string, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	a.asked = append(a.asked, req)
	resp := sdk.GroundResponse{Coverage: sdk.Coverage{Name: "git/git", Latest: clock}}
	for _, t := range req.Terms {
		g := sdk.GroundedTerm{Kind: t.Kind, Value: t.Value}
		if t.Kind == sdk.TermAuthor {
			g = a.answer
			g.Kind, g.Value = t.Kind, t.Value
		}
		resp.Terms = append(resp.Terms, g)
	}
	return resp, nil
}

func TestInterpretAuthorsInPeriod(t *testing.T) {
	p := defaultPlanner(t)
	t.Run("the question's period goes with the request", func(t *testing.T) {
		src := &authorSource{answer: sdk.GroundedTerm{Known: true}}
		_, err := p.Interpret(context.Background(), engine.Request{Query: "what did Martin commit in 2024?"}, src, clock)
		require.NoError(t, err)
		require.NotEmpty(t, src.asked)
		assert.Equal(t, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), src.asked[0].Since)
		assert.Equal(t, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), src.asked[0].Until)
	})
	t.Run("no period, none sent", func(t *testing.T) {
		src := &authorSource{answer: sdk.GroundedTerm{Known: true}}
		_, err := p.Interpret(context.Background(), engine.Request{Query: "what did Martin commit?"}, src, clock)
		require.NoError(t, err)
		require.NotEmpty(t, src.asked)
		assert.True(t, src.asked[0].Since.IsZero() && src.asked[0].Until.IsZero())
	})
	t.Run("the only person in the period: applied, and the reading said", func(t *testing.T) {
		note := `"Martin" read as Martin Ågren, the only Martin with commits in 2024 (7)`
		src := &authorSource{answer: sdk.GroundedTerm{Known: true, Canonical: []string{"Martin Ågren"}, Note: note}}
		plan, err := p.Interpret(context.Background(), engine.Request{Query: "what did Martin commit in 2024?"}, src, clock)
		require.NoError(t, err)
		assert.Nil(t, plan.Blocking())
		assert.Contains(t, plan.Interpretation.Constraints, engine.Constraint{Key: "authors", Value: "Martin Ågren", Phrase: "Martin", Source: "gitlab", Reason: note})
	})
	t.Run("several people: the repository's name, the source's ranking, an incomplete list said", func(t *testing.T) {
		src := &authorSource{answer: sdk.GroundedTerm{Known: true, Partial: true, Canonical: []string{"Jeff King", "Jeff Hostetler"},
			Note: "by commits in 2019: Jeff King 271, Jeff Hostetler 51"}}
		plan, err := p.Interpret(context.Background(), engine.Request{Query: "what did Jeff change in 2019?"}, src, clock)
		require.NoError(t, err)
		require.NotNil(t, plan.Blocking())
		assert.Equal(t, `"Jeff" matches 2 people in git/git; by commits in 2019: Jeff King 271, Jeff Hostetler 51; the list may be incomplete`, plan.Blocking().Message)
		assert.Equal(t, []string{"Jeff King", "Jeff Hostetler"}, plan.Blocking().Candidates)
	})
}

func TestInterpretUnknownAuthorSaid(t *testing.T) {
	plan, err := defaultPlanner(t).Interpret(context.Background(), engine.Request{Query: "what did Zed Nobody change?"}, hclRepo(), clock)
	require.NoError(t, err)
	require.Len(t, plan.Interpretation.Missing, 1, "a named author no source knows is kept and said, never dropped")
	missing := plan.Interpretation.Missing[0]
	assert.Equal(t, "authors", missing.Key)
	assert.Equal(t, "Zed Nobody", missing.Value)
	assert.Equal(t, sdk.TermAuthor, missing.Ground)
	assert.Empty(t, plan.Interpretation.Unknown, "not also unknown")
	assert.Equal(t, []string{"Zed Nobody"}, plan.Reasoning.Entities["authors"], "the filter stays: the answer is about that author, not everyone")
}
