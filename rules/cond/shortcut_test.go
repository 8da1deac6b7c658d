package cond

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShortcutsMatchAsRegexpOnTheDefaultRules runs every pattern of the
// default rules (entities and conditions) over the questions of the
// repository's tests and examples and variations of them (other cases,
// every tail from a word on, pairs joined): Regexp with its prefilter and
// shortcuts finds exactly what regexp finds.
func TestShortcutsMatchAsRegexpOnTheDefaultRules(t *testing.T) {
	patterns := defaultPatterns(t)
	require.Greater(t, len(patterns), 40)
	questions := sampleQuestions(t)
	require.Greater(t, len(questions), 1000)
	shortcuts := map[string]int{}
	for _, pattern := range patterns {
		re := regexp.MustCompile(pattern)
		r, err := CompileRegexp(pattern)
		require.NoError(t, err)
		for _, q := range questions {
			text := NewText(q)
			if !assert.Equal(t, re.FindAllStringSubmatchIndex(q, -1), r.FindAll(text), "%s on %q", pattern, q) ||
				!assert.Equal(t, re.MatchString(q), r.Match(text), "%s on %q", pattern, q) {
				return
			}
		}
		shortcuts[r.shortcut()]++
	}
	t.Logf("%d patterns over %d questions; shortcuts %v", len(patterns), len(questions), shortcuts)
}

// shortcut names the way r matches an ASCII text.
func (r *Regexp) shortcut() string {
	r.prepare()
	switch {
	case r.words != nil:
		return "words"
	case r.starts != nil:
		return "starts"
	case r.ends != nil:
		return "ends"
	}
	return "regexp"
}

var (
	hclString  = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	exprString = regexp.MustCompile(`matches '((?:[^'\\]|\\.)*)'`)
)

// defaultPatterns are the regular expressions of the default rules: the
// strings of their HCL that compile and start as a pattern does, and the
// constant patterns of their conditions.
func defaultPatterns(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "rules", "default", "*.hcl"))
	require.NoError(t, err)
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		// A pattern starts so; prose and conditions do not.
		if _, err := regexp.Compile(p); err == nil && !seen[p] && strings.IndexAny(p, `\(^`) == 0 {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range hclString.FindAllStringSubmatch(string(data), -1) {
			s, err := strconv.Unquote(`"` + m[1] + `"`)
			if err != nil {
				continue
			}
			add(s)
			for _, c := range exprString.FindAllStringSubmatch(s, -1) {
				add(strings.NewReplacer(`\\`, `\`, `\'`, `'`).Replace(c[1]))
			}
		}
	}
	return out
}

// sampleQuestions are the questions of the repository's tests and
// examples and variations of them.
func sampleQuestions(t *testing.T) []string {
	var globs []string
	for _, g := range []string{"examples/tests/*.hcl", "examples/inputs/*.json", "engine/*_test.go", "rules/testdata/*/*.hcl"} {
		files, err := filepath.Glob(filepath.Join("..", "..", g))
		require.NoError(t, err)
		globs = append(globs, files...)
	}
	seen := map[string]bool{}
	var base []string
	for _, f := range globs {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range hclString.FindAllStringSubmatch(string(data), -1) {
			if s, err := strconv.Unquote(`"` + m[1] + `"`); err == nil && strings.Count(s, " ") >= 2 && len(s) < 300 && !seen[s] {
				seen[s] = true
				base = append(base, s)
			}
		}
	}
	out := append([]string{"", " ", "a", "PAY-1", "v1.2..v1.3", "ſince v1.2", "Kelvin \u212a project"}, base...)
	for i, q := range base {
		out = append(out, strings.ToUpper(q), strings.ToLower(q), q+" "+base[(i+1)%len(base)], "in "+q+" last week")
		for j := 1; j < len(q); j++ {
			if q[j-1] == ' ' && i%4 == 0 {
				out = append(out, q[j:])
			}
		}
	}
	return out
}

// BenchmarkDefaultPatterns matches every pattern of the default rules
// against three questions, as planning a question does (FindAll and Match
// once each per pattern and question).
func BenchmarkDefaultPatterns(b *testing.B) {
	var patterns []*Regexp
	for _, p := range defaultPatterns(b) {
		r, err := CompileRegexp(p)
		require.NoError(b, err)
		patterns = append(patterns, r)
	}
	texts := []Text{
		NewText("what changed in this repository last week?"),
		NewText("What commits were pushed to project payments last week, and how many open bugs are there?"),
		NewText("who contributed to plumbing/format/packfile since v1.17.0?"),
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			for _, r := range patterns {
				r.FindAll(t)
				r.Match(t)
			}
		}
	}
}
