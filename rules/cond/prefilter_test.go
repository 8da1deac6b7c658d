package cond

import (
	"reflect"
	"regexp"
	"regexp/syntax"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrefilterLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		want    prefilter
	}{
		{`(?i)\bsince\s+(v?\d+)`, prefilter{{"since"}, {"\t", "\n", "\f", "\r", " "}, {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}}}, // ſince folds to since
		{`\bsince\s+(v?\d+)`, prefilter{{"since"}, {"\t", "\n", "\f", "\r", " "}, {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}}},
		{`(?i)\b(?:about|regarding)\s+(\w+)`, prefilter{{"about", "regarding"}, {"\t", "\n", "\f", "\r", " "}}},
		{`(?i)kiss`, prefilter{{"kiss"}}},
		{`\b([\w.-]+/[\w.-]*)`, prefilter{{"/"}}},
		{`(?i)\bbranch\s+(\w+)|\bon\s+(\w+)\s+branch`, prefilter{{"branch"}}},
		{`\b([A-Z]\w+)'s\s+commits`, prefilter{{"'s"}, {"\t", "\n", "\f", "\r", " "}, {"commits"}}}, // every required literal
		{`\b\w+\b`, nil}, // only classes
		{`(?:foo)?bar|baz`, prefilter{{"bar", "baz"}}},
		{`x*`, nil}, // matches the empty string
		{`(?:foo|\d+)`, prefilter{{"foo", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}}},
		{`(?:foo|\w+)`, nil}, // one branch has no literal
		{`(?i)\b(?:projects?|repo(?:sitory)?)\b`, prefilter{{"project", "repo"}}},
		{`\b(?:in|does|do|did)\s+([A-Z]+)`, prefilter{{"in", "do", "did"}, {"\t", "\n", "\f", "\r", " "}}}, // factored prefixes expand
		{`(?i)\b(?:touch(?:ed|es)?|in)\s`, prefilter{{"touch", "in"}, {"\t", "\n", "\f", "\r", " "}}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			assert.Equal(t, tt.want, prefilterOf(t, tt.pattern))
		})
	}
}

// prefilterOf is the prefilter of pattern.
func prefilterOf(t testing.TB, pattern string) prefilter {
	tree, err := syntax.Parse(pattern, syntax.Perl)
	require.NoError(t, err)
	return newPrefilter(tree.Simplify())
}

// TestPrefilterNeverHidesAMatch checks the prefilter against the regexp
// itself: whenever the regexp matches, the prefilter lets it run.
func TestPrefilterNeverHidesAMatch(t *testing.T) {
	patterns := []string{`(?i)\bSINCE\s+(v?\d+)`, `\b[Bb]y\s+([A-Z]\w+)`, `(?i)(?:Touch|UNDER)\s+(\w+)`, `(?i)\b(?:on|in)\s+branch\s+(\w+)`}
	queries := []string{"Since V1.2", "commits By Alice", "touch the README", "UNDER docs", "On Branch main", "nothing", "in branch x"}
	for _, pat := range patterns {
		re := regexp.MustCompile(pat)
		p := prefilterOf(t, pat)
		for _, q := range queries {
			if re.MatchString(q) {
				assert.True(t, p.screen().mayMatch(fold(q)), "%s on %q", pat, q)
			}
		}
	}
}

// FuzzPrefilter checks the prefilter's one promise on arbitrary patterns and
// queries, that it never hides a match, and that Regexp with all its
// shortcuts finds what regexp finds.
func FuzzPrefilter(f *testing.F) {
	f.Add(`(?i)\b(?:since|after)\s+(v?\d+\.\d+)`, "Since v1.2")
	f.Add(`\b[Bb]y\s+([A-Z]\w+)`, "commits By Alice")
	f.Add(`(?:foo)?bar|baz+`, "BAZZ")
	f.Add(`(?i)ǅ|ſ`, "S")
	f.Add(`(?i)since`, "ſince")
	f.Add(`(?i)kind`, "\u212aind")
	f.Add(`(?i)\b(open|closed|in-progress)\b`, "Open bugs, closed-ones and in-progress")
	f.Add(`(?i)\b(?:commit(?:s|ted)?|merged?|merge requests?)\b`, "MERGE REQUESTS merged")
	f.Add(`(?i)\b(?:how (?:do|can) i|docs)\b`, "How can I read the docs?")
	f.Add(`(?i)\b(?:projects?|repo(?:sitory)?)[:=\s]+([A-Za-z0-9][\w.-]*)`, "the Repo: nous and project x")
	f.Add(`(?i)\bin(?:to)?\s+(?:the\s+)?([A-Za-z][\w./-]*)\s+(?:today|last)\b`, "pushed into the api last week, in x today")
	f.Add(`^\s*(hi|hello)\b`, "hello there")
	f.Add(`(?i)\b([A-Za-z0-9][\w.-]*)\s+(?:project|repo(?:sitory)?)\b`, "the nous Repo and the payments project.")
	f.Add(`\w+ing$`, "going, doing")
	f.Add(`\b(?:a|ab)\b|c??d`, "ab d cd")
	f.Add(`(?:the\s+)?(?:foo|bar)\w+\b`, "a bar1 and the foo2")
	f.Add(`\s*(?:x|y)+z|w{0,2}(?:ab|c)\b`, "  xyz wwc ab")
	f.Add(`(?i)\b(?:in|of)\s+([A-Z]+)\b`, "in PAY, OF x")
	f.Add(`(?i)\b(?:a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r)s?\b`, "ks and Q")
	f.Fuzz(func(t *testing.T, pattern, query string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		r, err := CompileRegexp(pattern)
		if err != nil {
			t.Fatalf("CompileRegexp(%q): %v", pattern, err)
		}
		if re.MatchString(query) && !prefilterOf(t, pattern).screen().mayMatch(fold(query)) {
			t.Fatalf("prefilter %q of %q hides its match in %q", prefilterOf(t, pattern), pattern, query)
		}
		if got, want := r.MatchString(query), re.MatchString(query); got != want {
			t.Fatalf("%q on %q: MatchString is %v, regexp says %v", pattern, query, got, want)
		}
		if got, want := r.FindAll(NewText(query)), re.FindAllStringSubmatchIndex(query, -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q on %q: FindAll is %v, regexp says %v", pattern, query, got, want)
		}
	})
}
