package cond

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// posOf returns the position of the first occurrence of marker in src.
func posOf(t *testing.T, src, marker string) hcl.Pos {
	t.Helper()
	i := strings.Index(src, marker)
	require.GreaterOrEqual(t, i, 0, "marker %q not in source", marker)
	line := 1 + strings.Count(src[:i], "\n")
	col := 1 + len([]rune(src[strings.LastIndex(src[:i], "\n")+1:i]))
	return hcl.Pos{Line: line, Column: col, Byte: i}
}

func TestConditionErrorPositions(t *testing.T) {
	tests := []struct {
		name, file, src, marker string
	}{
		{
			name:   "plain quoted string",
			file:   "a.hcl",
			src:    "mode \"m\" {\n  when = \"query == 'x' && bogus\"\n}\n",
			marker: "bogus",
		},
		{
			name:   "escapes before the error",
			file:   "a.hcl",
			src:    "mode \"m\" {\n  when = \"query matches '\\\\bx\\\\b' && \\\"é\\\" == \\u0071uery && nosuch\"\n}\n",
			marker: "nosuch",
		},
		{
			name:   "template escape before the error",
			file:   "a.hcl",
			src:    "mode \"m\" {\n  when = \"query == '$${x}' && nosuch\"\n}\n",
			marker: "nosuch",
		},
		{
			name:   "heredoc",
			file:   "a.hcl",
			src:    "mode \"m\" {\n  when = <<EOT\nquery == 'x' &&\n  nosuch\nEOT\n}\n",
			marker: "nosuch",
		},
		{
			name:   "indented heredoc",
			file:   "a.hcl",
			src:    "mode \"m\" {\n  when = <<-EOT\n    query == 'x' &&\n      nosuch\n    EOT\n}\n",
			marker: "nosuch",
		},
		{
			name:   "multibyte characters before the error",
			file:   "a.hcl",
			src:    "mode \"m\" {\n  when = \"query == '中央社' && nosuch\"\n}\n",
			marker: "nosuch",
		},
		{
			name:   "JSON surrogate pair before the error",
			file:   "a.hcl.json",
			src:    "{\"mode\": {\"m\": {\"when\": \"query == '\\ud83d\\ude00' || nosuch\"}}}\n",
			marker: "nosuch",
		},
		{
			name:   "JSON string with escapes",
			file:   "a.hcl.json",
			src:    "{\"mode\": {\"m\": {\n  \"when\": \"query == \\\"x\\\" \\u0026\\u0026 nosuch\"}}}\n",
			marker: "nosuch",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compileIn(t, tt.file, tt.src, QueryEnv{})
			require.NotNil(t, err)
			assert.Equal(t, posOf(t, tt.src, tt.marker), err.Subject.Start, err.Message)
			assert.Equal(t, tt.file, err.Subject.Filename)
		})
	}
}

func TestConditionRangeCoversExpressionText(t *testing.T) {
	src := "mode \"m\" {\n  when = \"query == \\\"x\\\"\"\n}\n"
	when, err := compileIn(t, "a.hcl", src, QueryEnv{})
	require.Nil(t, err)
	assert.Equal(t, `query == "x"`, when.Source)
	assert.Equal(t, posOf(t, src, `query`), when.Range.Start)
	end := posOf(t, src, "\"\n}")
	assert.Equal(t, end, when.Range.End)
}
