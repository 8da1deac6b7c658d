package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEntityExtract(t *testing.T) {
	src := `entity "projects" {
  patterns = ["(?i)\\bproject[:\\s]+([\\w./-]+)", "\\b([a-z]+/[a-z]+)\\b"]
  ignore   = ["The", "this"]
}
entity "words" { pattern = "\\b[a-z]{3}\\b" }
`
	rs, diags := Parse("entities.hcl", []byte(src))
	require.Empty(t, diags, diags.Error())
	require.Len(t, rs.Entities, 2)
	projects, words := rs.Entities[0], rs.Entities[1]
	assert.Equal(t, []string{"The", "this"}, projects.Ignore)

	tests := []struct {
		name   string
		entity *Entity
		query  string
		dst    []string
		want   []string
	}{
		{"empty query", projects, "", nil, nil},
		{"capture group, first-seen order", projects, "project acme/web and project api then acme/web", nil, []string{"acme/web", "api"}},
		{"ignored values, any case", projects, "project THE and project This and project x", nil, []string{"x"}},
		{"whole match without a group", words, "get all the bug ids", nil, []string{"get", "all", "the", "bug", "ids"}},
		{"duplicates dropped", words, "bug bug bug", nil, []string{"bug"}},
		{"appends to dst, dedup only among its own values", words, "bug", []string{"bug"}, []string{"bug", "bug"}},
		{"no match keeps dst", projects, "nothing here", []string{"a"}, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.entity.Extract(tt.query, tt.dst))
		})
	}
}

func TestEntityIgnoreMustBeStrings(t *testing.T) {
	_, diags := Parse("e.hcl", []byte("entity \"e\" {\n  pattern = \"x\"\n  ignore = \"x\"\n}\n"))
	require.Len(t, diags, 1, diags.Error())
	assert.Equal(t, CheckType, CheckName(diags[0]))
	assert.Equal(t, 3, diags[0].Subject.Start.Line)
}

func BenchmarkEntityExtract(b *testing.B) {
	rs, diags := Parse("e.hcl", []byte(`entity "dates" {
  patterns = ["(?i)\\b(today|yesterday)\\b", "(?i)\\b((?:this|last) (?:week|month))\\b"]
  ignore   = ["this week"]
}`))
	require.Empty(b, diags)
	e := rs.Entities[0]
	query := "what changed in acme/web since yesterday and last week, not this week"
	var dst []string
	b.ReportAllocs()
	for b.Loop() {
		dst = e.Extract(query, dst[:0])
	}
}
