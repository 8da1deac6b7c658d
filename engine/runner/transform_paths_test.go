package runner

import (
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
)

// A commit's "paths" field lists the files it changed; the question names
// a directory or a file. The filter keeps the commits touching it, as
// `git log -- PATH` does (it used to demand an exact file name).
func TestMatchesEntitiesPaths(t *testing.T) {
	rec := sdk.Record{Fields: map[string]any{"paths": []string{"hclwrite/ast.go", "README.md"}}}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"hclwrite", true},
		{"hclwrite/", true},
		{"HCLWrite", true},
		{"hclwrite/ast.go", true},
		{"README.md", true},
		{"hcl", false}, // a prefix of a name is not a directory above it
		{"hclwrite/a", false},
		{"gohcl", false},
	} {
		ents := map[string][]string{"paths": {tc.path}}
		assert.Equal(t, tc.want, matchesEntities(rec, ents, []string{"paths"}), tc.path)
	}
	doc := sdk.Record{Fields: map[string]any{"path": "docs/guide/intro.md"}}
	assert.True(t, matchesEntities(doc, map[string][]string{"paths": {"docs"}}, []string{"paths"}))
	assert.False(t, matchesEntities(doc, map[string][]string{"paths": {"doc"}}, []string{"paths"}))
}

func TestUnderPath(t *testing.T) {
	assert.False(t, underPath("a/b", ""))
	assert.False(t, underPath("a/b", "/"))
	assert.True(t, underPath("a/b", "a"))
	assert.False(t, underPath("ab", "a"))
}
