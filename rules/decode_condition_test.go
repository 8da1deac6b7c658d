package rules

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConditionSafety(t *testing.T) {
	tests := []struct{ name, when, detail string }{
		{"not bool", `"query"`, "bool"},
		{"clock", `"now().Year() > 2000"`, "now"},
		{"time zone database", `"timezone('Europe/Paris') != nil"`, "timezone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse("c.hcl", []byte("mode \"m\" {\n  when = "+tt.when+"\n}\n"))
			require.Len(t, diags, 1)
			assert.Equal(t, CheckExpr, CheckName(diags[0]))
			assert.Contains(t, diags[0].Detail, tt.detail)
		})
	}
	_, diags := Parse("c.hcl", []byte("mode \"m\" {\n  when = \"query == 'a' || query == 'b' || query == 'c'\"\n}\n"), WithMaxNodes(5))
	require.Len(t, diags, 1, "a condition over the node budget is rejected")
	assert.Equal(t, CheckExpr, CheckName(diags[0]))
}

// posOf returns the position of the first occurrence of marker in src.
func posOf(t *testing.T, src, marker string) hcl.Pos {
	t.Helper()
	i := strings.Index(src, marker)
	require.GreaterOrEqual(t, i, 0, "marker %q not in source", marker)
	line := 1 + strings.Count(src[:i], "\n")
	col := 1 + len([]rune(src[strings.LastIndex(src[:i], "\n")+1:i]))
	return hcl.Pos{Line: line, Column: col, Byte: i}
}

func TestConditionFallsBackToLiteralWhenInterpolated(t *testing.T) {
	src := "mode \"m\" {\n  when = \"query == '${env(\"X\", \"y\")}' && nosuch\"\n}\n"
	_, diags := Parse("a.hcl", []byte(src))
	require.Len(t, diags, 1, diags.Error())
	assert.Equal(t, posOf(t, src, `"query`), diags[0].Subject.Start)
}
