package runner

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBM25Scores(t *testing.T) {
	// Each expected score is the formula worked by hand:
	// idf = ln(1 + (N-n+0.5)/(n+0.5)), tf·2.2 / (tf + 1.2·(0.25 + 0.75·|d|/avgdl)).
	tests := []struct {
		name  string
		docs  []string
		terms []string
		want  []float64
	}{
		{
			name:  "one term, tf and length",
			docs:  []string{"fix packfile index", "packfile packfile reader", "update readme"}, // |d| 3, 3, 2; avgdl 8/3
			terms: []string{"packfile"},                                                        // n = 2: idf = ln(1.6)
			want: []float64{
				math.Log(1.6) * 2.2 / (1 + 1.2*(0.25+0.75*3/(8.0/3))), // 0.4471
				math.Log(1.6) * 4.4 / (2 + 1.2*(0.25+0.75*3/(8.0/3))), // 0.6243
				0,
			},
		},
		{
			name:  "two terms add, rare term weighs more",
			docs:  []string{"heredoc parser fix", "parser cleanup", "parser tests", "heredoc"}, // |d| 3, 2, 2, 1; avgdl 2
			terms: []string{"heredoc", "parser"},                                               // n 2 and 3
			want: []float64{
				math.Log(1+2.5/2.5)*2.2/(1+1.2*(0.25+0.75*3.0/2)) + math.Log(1+1.5/3.5)*2.2/(1+1.2*(0.25+0.75*3.0/2)),
				math.Log(1+1.5/3.5) * 2.2 / (1 + 1.2),
				math.Log(1+1.5/3.5) * 2.2 / (1 + 1.2),
				math.Log(2) * 2.2 / (1 + 1.2*(0.25+0.75*1.0/2)),
			},
		},
		{
			name:  "a term in every document still counts a little",
			docs:  []string{"fix", "fix"},
			terms: []string{"fix"},
			want:  []float64{math.Log(1+0.5/2.5) * 2.2 / 2.2, math.Log(1+0.5/2.5) * 2.2 / 2.2},
		},
		{
			name:  "prefix match from three letters",
			docs:  []string{"packfiles fixed", "go going"},
			terms: []string{"packfile", "go"},
			want:  []float64{math.Log(1+1.5/1.5) * 2.2 / 2.2, math.Log(1+1.5/1.5) * 2.2 / 2.2},
		},
		{"no terms", []string{"a b"}, nil, []float64{0}},
		{"no documents", nil, []string{"x"}, []float64{}},
		{"empty document", []string{"", "fix"}, []string{"fix"}, []float64{0, math.Log(1+1.5/1.5) * 2.2 / (1 + 1.2*(0.25+0.75*1/0.5))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs := make([][]string, len(tt.docs))
			for i, d := range tt.docs {
				docs[i] = tokens(d)
			}
			got := bm25(docs, tt.terms)
			require.Len(t, got, len(tt.want))
			for i := range got {
				assert.InDelta(t, tt.want[i], got[i], 1e-12, "document %d", i)
			}
		})
	}
	assert.InDelta(t, 0.447138, bm25([][]string{tokens("fix packfile index"), tokens("packfile packfile reader"), tokens("update readme")}, []string{"packfile"})[0], 1e-6)
}

func ids(recs []sdk.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

func TestRankOrder(t *testing.T) {
	at := func(h int) time.Time { return fixedNow.Add(-time.Duration(h) * time.Hour) }
	recs := []sdk.Record{
		{ID: "a", Title: "docs typo", Time: at(1)},
		{ID: "b", Title: "payments retry", Time: at(2)},
		{ID: "c", Title: "payments refund changes", Body: "the refund path of payments", Time: at(3)},
		{ID: "d", Title: "payments retry", Time: at(2)},
		{ID: "e", Title: "Update packfile reader", Body: "plumbing/format/packfile: read deltas", Time: at(9)},
		{ID: "f", Title: "tidy", Body: "mentions PackFile once", Time: at(8)},
	}
	tests := []struct {
		name   string
		query  string
		topics []string
		want   []string
	}{
		// c says "payments" twice but is four times as long as b and d (BM25's length normalisation).
		{"content words: by score, then newer, then ID", "what payments changes?", nil, []string{"b", "d", "c", "a", "f", "e"}},
		{"topics: matching first, by relevance", "commits about packfile", []string{"packfile"}, []string{"e", "f", "a", "b", "d", "c"}},
		{"topics outrank the question's words", "payments work on packfile", []string{"packfile"}, []string{"e", "f", "a", "b", "d", "c"}},
		{"no term matches: newest first", "zebra", nil, []string{"a", "b", "d", "c", "f", "e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := rank(tt.query, tt.topics, recs)
			assert.Equal(t, tt.want, ids(out.Records))
		})
	}
}

// TestRankTopicsPlacement is issue 8's "commits about packfile": the two
// matching commits come first among many, whatever their age.
func TestRankTopicsPlacement(t *testing.T) {
	recs := make([]sdk.Record, 0, 300)
	for i := range 298 {
		recs = append(recs, sdk.Record{ID: fmt.Sprintf("n%03d", i), Title: fmt.Sprintf("fix parser bug %d", i), Body: "tests for the reader", Time: fixedNow.Add(-time.Duration(i) * time.Hour)})
	}
	recs = append(recs,
		sdk.Record{ID: "p1", Title: "plumbing: format/packfile, fix delta offsets", Time: fixedNow.AddDate(-3, 0, 0)},
		sdk.Record{ID: "p2", Title: "Refactor", Body: "Move the PACKFILE scanner", Time: fixedNow.AddDate(-4, 0, 0)},
	)
	out := rank("commits about packfile", []string{"packfile"}, recs)
	assert.ElementsMatch(t, []string{"p1", "p2"}, ids(out.Records[:2]))
	assert.Equal(t, "p2", out.Records[0].ID, "the shorter message first at equal term frequency")
	assert.Equal(t, "ranked 300 record(s) by BM25 relevance to the topics packfile; 2 mention one", out.Text)
}

func TestRankStepUsesTopics(t *testing.T) {
	rs := loadRules(t, "")
	recs := []sdk.Record{
		{ID: "new", Source: "git", Kind: sdk.KindCommit, Title: "bump deps", Time: fixedNow.Add(-time.Hour)},
		{ID: "old", Source: "git", Kind: sdk.KindCommit, Title: "heredoc: trim indentation", Time: fixedNow.AddDate(-1, 0, 0)},
	}
	spec := []stepSpec{
		{id: "h0", desc: "Retrieve", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
		{id: "h1", desc: "Rank", action: "rank", deps: []string{"h0"}},
	}
	t.Run("entity", func(t *testing.T) {
		plan := buildPlan(rs, "which commits mention heredoc?", "discovery", map[string][]string{"topics": {"heredoc"}}, spec...)
		res, err := New(gitSource(recs), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
		require.NoError(t, err)
		assert.Equal(t, "ranked 2 record(s) by BM25 relevance to the topics heredoc; 1 mention one", res.Steps[1].Output)
	})
	t.Run("interpretation", func(t *testing.T) {
		plan := buildPlan(rs, "which commits mention heredoc?", "discovery", nil, spec...)
		plan.Interpretation = &engine.Interpretation{Constraints: []engine.Constraint{{Key: "topics", Value: "heredoc"}}}
		res, err := New(gitSource(recs), standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
		require.NoError(t, err)
		assert.Equal(t, "ranked 2 record(s) by BM25 relevance to the topics heredoc; 1 mention one", res.Steps[1].Output)
	})
}

// BenchmarkRank1000 ranks 1000 commit-like records by a two-word topic.
func BenchmarkRank1000(b *testing.B) {
	words := []string{"fix", "parser", "reader", "packfile", "index", "delta", "docs", "tests", "refactor", "bump", "deps", "config"}
	recs := make([]sdk.Record, 1000)
	for i := range recs {
		recs[i] = sdk.Record{ID: fmt.Sprintf("c%04d", i), Time: fixedNow.Add(-time.Duration(i) * time.Minute),
			Title: fmt.Sprintf("%s %s %s", words[i%12], words[(i*7)%12], words[(i*5)%12]),
			Body:  fmt.Sprintf("This change touches the %s and the %s; see issue %d.", words[(i*3)%12], words[(i*11)%12], i)}
	}
	topics := []string{"packfile", "delta index"}
	b.ReportAllocs()
	for b.Loop() {
		if out := rank("commits about packfile and delta index", topics, recs); len(out.Records) != len(recs) {
			b.Fatal(len(out.Records))
		}
	}
}
