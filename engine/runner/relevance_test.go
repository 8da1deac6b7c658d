package runner

import (
	"fmt"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
)

// TestRelevantOrder ranks small documentation trees the way the user
// checks did: headings over bodies, every term over some, "builtin" finding
// "built-in", release notes after guides.
func TestRelevantOrder(t *testing.T) {
	section := func(file, title, body string) sdk.Record {
		return sdk.Record{ID: file + ":1", Kind: sdk.KindDocument, Title: title, Body: body, Fields: map[string]any{"path": file}}
	}
	changelog := map[string]float64{"CHANGELOG*": 0.3, "*/RelNotes/*": 0.3}
	tests := []struct {
		name    string
		terms   []string
		weights map[string]float64
		docs    []sdk.Record
		want    []string
		matched []string
	}{
		{
			name:  "a heading naming the term before a body mentioning it",
			terms: []string{"functions"},
			docs: []sdk.Record{
				section("docs/a.md", "Variables", "Variables hold values that functions read."),
				section("docs/b.md", "String Functions", "Operate on strings."),
			},
			want: []string{"docs/b.md:1", "docs/a.md:1"}, matched: []string{"functions"},
		},
		{
			name:  "every term before some, built-in is builtin",
			terms: []string{"builtin", "functions"},
			docs: []sdk.Record{
				section("docs/a.md", "Number Functions", "Functions on numbers."),
				section("docs/b.md", "Date Functions", "Expr has a built-in support for time."),
				section("docs/c.md", "Nil coalescing", "Returns the left-hand side."),
			},
			want: []string{"docs/b.md:1", "docs/a.md:1"}, matched: []string{"builtin", "functions"},
		},
		{
			name:  "no term matches: nothing is relevant",
			terms: []string{"hclwrite"},
			docs:  []sdk.Record{section("README.md", "Who uses Expr?", "Many users use Expr.")},
			want:  []string{},
		},
		{
			name:    "release notes weigh less than a guide",
			terms:   []string{"hclwrite"},
			weights: changelog,
			docs: []sdk.Record{
				section("CHANGELOG.md", "Bugs Fixed", "hclwrite: fix a race in hclwrite.Format"),
				section("Documentation/RelNotes/1.0.txt", "hclwrite", "hclwrite"),
				section("hclwrite/fuzz/README.md", "hclwrite fuzzing utilities", "Fuzz-test the hclwrite parsers, see the long guide about running them."),
			},
			want: []string{"hclwrite/fuzz/README.md:1", "Documentation/RelNotes/1.0.txt:1", "CHANGELOG.md:1"}, matched: []string{"hclwrite"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, matched := relevant(tt.terms, tt.weights, tt.docs)
			assert.Equal(t, tt.want, ids(got))
			assert.Equal(t, tt.matched, matched)
		})
	}
}

func TestWeightOf(t *testing.T) {
	weights := map[string]float64{"CHANGELOG*": 0.3, "Documentation/RelNotes/*": 0.5, "NEWS*": 0.2}
	tests := []struct {
		rec  sdk.Record
		want float64
	}{
		{sdk.Record{ID: "CHANGELOG.md:12"}, 0.3},
		{sdk.Record{ID: "x", Fields: map[string]any{"path": "sub/CHANGELOG.md"}}, 0.3}, // a name glob matches in any directory
		{sdk.Record{ID: "Documentation/RelNotes/2.0.adoc:1"}, 0.5},
		{sdk.Record{ID: "Documentation/git-bisect.adoc:1"}, 1},
		{sdk.Record{ID: "README.md:1"}, 1},
	}
	for _, tt := range tests {
		assert.InDelta(t, tt.want, weightOf(weights, tt.rec), 1e-12, tt.rec.ID)
	}
	assert.InDelta(t, 1.0, weightOf(nil, sdk.Record{ID: "CHANGELOG.md:1"}), 1e-12)
}

func TestTokensJoinHyphenatedWords(t *testing.T) {
	assert.Equal(t, []string{"a", "built", "in", "function", "builtin"}, tokens("A built-in function"))
	assert.Equal(t, []string{"git", "bisect", "run", "gitbisect"}, tokens("git-bisect --run"))
	assert.Equal(t, []string{"flag"}, tokens("--flag-"))
}

// BenchmarkRelevant ranks 2000 documentation sections by two terms.
func BenchmarkRelevant(b *testing.B) {
	words := []string{"parser", "built-in", "functions", "config", "install", "usage", "errors", "types", "operators", "dates"}
	recs := make([]sdk.Record, 2000)
	for i := range recs {
		recs[i] = sdk.Record{ID: fmt.Sprintf("docs/f%d.md:%d", i%40, i), Title: words[i%10] + " " + words[(i*3)%10],
			Body: fmt.Sprintf("This section explains %s and %s, with an example of %s.", words[(i*7)%10], words[(i*9)%10], words[i%10])}
	}
	weights := map[string]float64{"CHANGELOG*": 0.3}
	b.ReportAllocs()
	for b.Loop() {
		relevant([]string{"builtin", "functions"}, weights, recs)
	}
}

func TestStemOf(t *testing.T) {
	for term, want := range map[string]string{
		"configure": "configur", "configuration": "configur", "configured": "configur",
		"parser": "parser", "parsing": "pars", "functions": "function", "builtin": "builtin",
		"bisect": "bisect", "address": "address", "use": "use", "fix": "fix", "packfile": "packfil",
	} {
		assert.Equal(t, want, stemOf(term), term)
	}
	assert.Equal(t, 2, termFrequency(tokens("Configuration: how to configure it"), stemOf("configure")))
}
