package engine_test

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlanAmbiguities(t *testing.T) {
	p := defaultPlanner(t)
	for _, tt := range []struct {
		name string
		req  engine.Request
		want []engine.Ambiguity
	}{
		{name: "a command with nothing to act on", req: engine.Request{Query: "please close it"},
			want: []engine.Ambiguity{{Type: engine.AmbiguityMissingEntity, Entity: "targets", Blocking: true,
				Message: "command_action needs targets, and the question names none"}}},
		{name: "a command naming its target", req: engine.Request{Query: "please close PAY-101"}},
		{name: "a command on an issue number", req: engine.Request{Query: "close #12"}},
		{name: "two questions in one combine", req: engine.Request{Query: "what commits were pushed last week, and how many open bugs are there?"}},
		{name: "an ordinary question", req: engine.Request{Query: "what changed last week?"}},
		{name: "doing and explaining within the margin", req: engine.Request{Intents: []engine.Intent{
			{Type: "command_action", Confidence: 0.8}, {Type: "request_help", Confidence: 0.84}},
			Entities: map[string][]string{"targets": {"runner"}}},
			want: []engine.Ambiguity{{Type: engine.AmbiguityIntent, Blocking: true, Candidates: []string{"request_help", "command_action"},
				Message: "the question reads as request_help (0.84) and as command_action (0.80), whose answers exclude each other"}}},
		{name: "the margin is inclusive", req: engine.Request{Intents: []engine.Intent{
			{Type: "request_help", Confidence: 0.9}, {Type: "command_action", Confidence: 0.85}},
			Entities: map[string][]string{"targets": {"runner"}}},
			want: []engine.Ambiguity{{Type: engine.AmbiguityIntent, Blocking: true, Candidates: []string{"request_help", "command_action"},
				Message: "the question reads as request_help (0.90) and as command_action (0.85), whose answers exclude each other"}}},
		{name: "a clear winner beyond the margin", req: engine.Request{Intents: []engine.Intent{
			{Type: "command_action", Confidence: 0.8}, {Type: "request_help", Confidence: 0.9}},
			Entities: map[string][]string{"targets": {"runner"}}}},
		{name: "intents that do not conflict", req: engine.Request{Intents: []engine.Intent{
			{Type: "query_commits", Confidence: 0.9}, {Type: "query_issues", Confidence: 0.9}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := plan(t, p, tt.req)
			assert.Equal(t, tt.want, got.Ambiguities)
			assert.Equal(t, len(tt.want) > 0, got.Blocking() != nil)
		})
	}
}

func TestInterpretMultipleMatches(t *testing.T) {
	repo := hclRepo()
	repo.authors = append(repo.authors, "Martin Hoefling <m@h.de>", "Martin Atkins <apparentlymart@users.noreply.github.com>")
	repo.paths = append(repo.paths, "json/parser.go", "hclsyntax/parser.go")
	p := defaultPlanner(t)
	for _, tt := range []struct {
		name, query string
		want        []engine.Ambiguity
	}{
		{name: "a first name two people share", query: "what did Martin change last week?",
			want: []engine.Ambiguity{{Type: engine.AmbiguityMultipleMatches, Entity: "authors", Value: "Martin", Blocking: true,
				Candidates: []string{"Martin Atkins", "Martin Hoefling"}, Message: `"Martin" matches 2 people in hashicorp/hcl`}}},
		{name: "one person under two addresses", query: "what did Martin Atkins change last week?"},
		{name: "a file name in several directories is an OR", query: "who changed parser.go?",
			want: []engine.Ambiguity{{Type: engine.AmbiguityMultipleMatches, Entity: "paths", Value: "parser.go",
				Candidates: []string{"json/parser.go", "hclsyntax/parser.go"}, Message: `"parser.go" matches 2 paths in hashicorp/hcl`}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := p.Interpret(context.Background(), engine.Request{Query: tt.query}, repo, clock)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Ambiguities)
		})
	}
}

// BenchmarkAmbiguities plans a question whose command names nothing to act
// on: detection, entities and the ambiguity it leaves (pure, no I/O).
func BenchmarkAmbiguities(b *testing.B) {
	p := defaultPlanner(b)
	req := engine.Request{Query: "please close it"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		pl, err := p.Plan(ctx, req)
		if err != nil || pl.Blocking() == nil {
			b.Fatal(err)
		}
	}
}
