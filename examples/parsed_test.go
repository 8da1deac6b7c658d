package examples_test

import (
	"io/fs"
	"os"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/snapshot"
)

// TestParsedIsFresh: default_parsed.go is what go generate writes for the
// default rules as they are.
func TestParsedIsFresh(t *testing.T) {
	want, err := snapshot.Generate("examples", os.DirFS("rules/default"))
	require.NoError(t, err)
	got, err := os.ReadFile("default_parsed.go")
	require.NoError(t, err)
	assert.True(t, string(want) == string(got), "default_parsed.go is stale: run go generate ./examples")
}

// TestParsedBodies: the syntax tree the embedded defaults hold for each
// file is the one hclsyntax parses from it, and none is given for other
// content.
func TestParsedBodies(t *testing.T) {
	fsys := examples.DefaultRules()
	parsed, ok := fsys.(rules.Parsed)
	require.True(t, ok, "the default rules come parsed")
	names, err := fs.Glob(fsys, "*.hcl")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, err := fs.ReadFile(fsys, name)
			require.NoError(t, err)
			f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
			require.False(t, diags.HasErrors(), diags)
			body := parsed.ParsedBody(name, src)
			require.NotNil(t, body)
			assert.Equal(t, f.Body, body)
			assert.NotSame(t, body, parsed.ParsedBody(name, src), "each load has its own tree")

			edited := append([]byte("# edited\n"), src...)
			assert.Nil(t, parsed.ParsedBody(name, edited), "an edited file is parsed")
			assert.Nil(t, parsed.ParsedBody("other/"+name, src))
		})
	}
}

// BenchmarkParsedBodies builds the syntax trees of every default file from
// the generated code, as each load of the defaults does.
func BenchmarkParsedBodies(b *testing.B) {
	fsys := examples.DefaultRules()
	parsed := fsys.(rules.Parsed)
	srcs := defaultSources(b, fsys)
	b.ReportAllocs()
	for b.Loop() {
		for name, src := range srcs {
			if parsed.ParsedBody(name, src) == nil {
				b.Fatal(name)
			}
		}
	}
}

// BenchmarkParseDefaults parses every default file from its text, as each
// load of the defaults did.
func BenchmarkParseDefaults(b *testing.B) {
	srcs := defaultSources(b, examples.DefaultRules())
	b.ReportAllocs()
	for b.Loop() {
		for name, src := range srcs {
			if _, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos); diags.HasErrors() {
				b.Fatal(diags)
			}
		}
	}
}

func defaultSources(b *testing.B, fsys fs.FS) map[string][]byte {
	names, err := fs.Glob(fsys, "*.hcl")
	require.NoError(b, err)
	srcs := make(map[string][]byte, len(names))
	for _, name := range names {
		srcs[name], err = fs.ReadFile(fsys, name)
		require.NoError(b, err)
	}
	return srcs
}
