package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClarifyAttributes(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      string // the one diagnostic's summary; "" for none
		line      int
	}{
		{name: "valid", src: `nous { clarify_margin = 0.2 }
entity "targets" { pattern = "x" }
entity "authors" {
  pattern = "y"
  ground  = "author"
  matches = "one"
}
intent "a" {
  requires  = ["targets"]
  conflicts = ["b"]
}
intent "b" {}
`},
		{name: "margin above one", src: "nous { clarify_margin = 1.5 }\n", want: `"clarify_margin" out of range`, line: 1},
		{name: "negative margin", src: "nous { clarify_margin = -0.1 }\n", want: `"clarify_margin" out of range`, line: 1},
		{name: "unknown required entity", src: "intent \"a\" {\n  requires = [\"nowhere\"]\n}\n", want: `Unknown entity "nowhere"`, line: 2},
		{name: "unknown conflicting intent", src: "intent \"a\" {\n  conflicts = [\"b\"]\n}\n", want: `Unknown intent "b"`, line: 2},
		{name: "bad matches", src: "entity \"e\" {\n  pattern = \"x\"\n  matches = \"some\"\n}\n", want: `Invalid value for "matches"`, line: 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := Parse("clarify.hcl", []byte(tt.src))
			if tt.want == "" {
				require.Empty(t, diags)
				assert.Equal(t, 0.2, rs.Settings.ClarifyMargin)
				assert.Equal(t, []string{"targets"}, rs.Intent("a").Requires)
				assert.Equal(t, []string{"b"}, rs.Intent("a").Conflicts)
				assert.Equal(t, MatchesOne, rs.Entity("authors").Matches)
				assert.Equal(t, MatchesAny, rs.Entity("targets").Matches)
				assert.True(t, rs.AsksBack())
				return
			}
			require.Len(t, diags, 1, diags.Error())
			assert.Equal(t, tt.want, diags[0].Summary)
			assert.Equal(t, tt.line, diags[0].Subject.Start.Line)
		})
	}
}

func TestAsksBack(t *testing.T) {
	rs, diags := Parse("plain.hcl", []byte("entity \"e\" {\n  pattern = \"x\"\n  matches = \"one\"\n}\nintent \"a\" {}\n"))
	require.Empty(t, diags)
	assert.False(t, rs.AsksBack(), "an ungrounded entity never matches several things")
}
