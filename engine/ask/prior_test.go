package ask_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine/ask"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrior(t *testing.T) {
	svc := ask.New(ask.Deps{Rules: defaultRules(t), Clock: func() time.Time { return now }})
	ctx := context.Background()

	t.Run("each earlier question is read as a follow-up of those before", func(t *testing.T) {
		s, err := svc.Prior(ctx, []string{"what changed in hclwrite in 2025?", " ", "and the year before?"}, "")
		require.NoError(t, err)
		require.Len(t, s.Turns, 2, "blank questions are skipped")
		assert.Equal(t, []string{"hclwrite"}, s.Turns[0].Entities["paths"])
		assert.Equal(t, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), s.Turns[0].Since.UTC())
		assert.Equal(t, []string{"hclwrite"}, s.Turns[1].Entities["paths"], "the follow-up keeps the path")
		assert.Equal(t, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), s.Turns[1].Since.UTC(), "and moves the period")
		assert.NotEmpty(t, s.Turns[1].Intents)
	})

	t.Run("the question then continues them", func(t *testing.T) {
		s, err := svc.Prior(ctx, []string{"what changed in hclwrite in 2025?"}, "")
		require.NoError(t, err)
		res, err := svc.Answer(ctx, newInProcess(t), ask.Request{Query: "what about hclsyntax?", Session: s})
		require.NoError(t, err)
		fu := res.Plan.Interpretation.FollowUp
		require.NotNil(t, fu, "read as a follow-up")
		assert.Equal(t, "what changed in hclwrite in 2025?", fu.Query)
		assert.NotContains(t, res.Plan.Reasoning.Entities["paths"], "hclwrite", "its own path replaces the earlier one")
		assert.Equal(t, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), res.Plan.Interpretation.Dates.Since.UTC())
	})

	t.Run("only the latest are read", func(t *testing.T) {
		qs := make([]string, ask.MaxPrior+5)
		for i := range qs {
			qs[i] = strings.Repeat("x", i+1)
		}
		s, err := svc.Prior(ctx, qs, "")
		require.NoError(t, err)
		require.Len(t, s.Turns, ask.MaxPrior)
		assert.Equal(t, qs[len(qs)-1], s.Turns[ask.MaxPrior-1].Query)
	})

	t.Run("none", func(t *testing.T) {
		s, err := svc.Prior(ctx, nil, "")
		require.NoError(t, err)
		assert.Nil(t, s)
	})
}
