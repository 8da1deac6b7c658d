package rules

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrefilterLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		want    prefilter
	}{
		{`(?i)\bsince\s+(v?\d+)`, prefilter{"since"}},
		{`(?i)\b(?:about|regarding)\s+(\w+)`, prefilter{"about", "regarding"}},
		{`\b([\w.-]+/[\w.-]*)`, prefilter{"/"}},
		{`(?i)\bbranch\s+(\w+)|\bon\s+(\w+)\s+branch`, prefilter{"branch"}},
		{`\b([A-Z]\w+)'s\s+commits`, prefilter{"commits"}}, // the longest required literal
		{`\b\w+\b`, nil}, // only classes
		{`(?:foo)?bar|baz`, prefilter{"bar", "baz"}},
		{`x*`, nil},          // matches the empty string
		{`(?:foo|\d+)`, nil}, // one branch has no literal
		{`(?i)\b(?:touch(?:ed|es)?|in)\s`, prefilter{"touch", "in"}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			p := newPrefilter(regexp.MustCompile(tt.pattern))
			assert.ElementsMatch(t, tt.want, p)
		})
	}
}

// TestPrefilterNeverHidesAMatch checks the prefilter against the regexp
// itself: whenever the regexp matches, the prefilter lets it run.
func TestPrefilterNeverHidesAMatch(t *testing.T) {
	patterns := []string{`(?i)\bSINCE\s+(v?\d+)`, `\b[Bb]y\s+([A-Z]\w+)`, `(?i)(?:Touch|UNDER)\s+(\w+)`, `(?i)\b(?:on|in)\s+branch\s+(\w+)`}
	queries := []string{"Since V1.2", "commits By Alice", "touch the README", "UNDER docs", "On Branch main", "nothing", "in branch x"}
	for _, pat := range patterns {
		re := regexp.MustCompile(pat)
		p := newPrefilter(re)
		for _, q := range queries {
			if re.MatchString(q) {
				assert.True(t, p.mayMatch(strings.ToLower(q)), "%s on %q", pat, q)
			}
		}
	}
}
