package rules

import (
	"io/fs"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/examples"
)

// parsedMap is a Parsed file system that holds the syntax tree of every
// file, as a snapshot holds them: without navigation.
type parsedMap struct {
	fstest.MapFS
	mu    *sync.Mutex
	asked map[string]bool
}

func (p parsedMap) ParsedBody(name string, src []byte) *hclsyntax.Body {
	p.mu.Lock()
	p.asked[name] = true
	p.mu.Unlock()
	f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if diags.HasErrors() {
		return nil
	}
	return f.Body.(*hclsyntax.Body)
}

// TestParsedLoadsAsText: rules loaded from their syntax trees are those
// loaded from their text, with the same diagnostics, and files that
// navigate (name the enclosing block) as parsed ones do.
func TestParsedLoadsAsText(t *testing.T) {
	files := fstest.MapFS{
		"a.hcl": {Data: []byte(`intent "i" {
  detect { when = "query matches 'x'" }
  hypothesis "h" { agent = "nobody" }
  retrieve "r" { source = "nowhere" }
}
mode "m" { keep = "item.tierr > 1" }
`)},
		"b.hcl":      {Data: []byte("source \"s\" { plugin = env(\"NOUS_TEST_PLUGIN\", \"builtin:git\") }\nentity \"e\" { pattern = \"(\" }\n")},
		"c.hcl.json": {Data: []byte(`{"tier": {"s": {"tier": 1}}}`)},
	}
	parsed := parsedMap{MapFS: files, mu: &sync.Mutex{}, asked: map[string]bool{}}
	text, textDiags := LoadFS(files, testEnv)
	fromTrees, treeDiags := LoadFS(parsed, testEnv)
	assert.Equal(t, map[string]bool{"a.hcl": true, "b.hcl": true}, parsed.asked, "JSON files are parsed")
	require.NotEmpty(t, textDiags)
	assert.Equal(t, textDiags.Error(), treeDiags.Error())
	assert.Empty(t, cmp.Diff(text, fromTrees, sameRules))
	assert.Equal(t, text.Source("s").Plugin, fromTrees.Source("s").Plugin)
	assertSameFiles(t, text.Files(), fromTrees.Files())
}

// TestDefaultsLoadAsText: the embedded defaults, loaded from the syntax
// trees go generate wrote, are the defaults loaded from their text.
func TestDefaultsLoadAsText(t *testing.T) {
	parsed := examples.DefaultRules()
	var text fstest.MapFS = map[string]*fstest.MapFile{}
	require.NoError(t, fs.WalkDir(parsed, ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			b, err := fs.ReadFile(parsed, p)
			text[p] = &fstest.MapFile{Data: b}
			return err
		}
		return err
	}))
	for _, env := range []Option{testEnv, WithEnv(nil)} {
		want, wantDiags := LoadFS(text, env)
		got, diags := LoadFS(parsed, env)
		assert.Equal(t, wantDiags.Error(), diags.Error())
		assert.Empty(t, cmp.Diff(want, got, sameRules))
		assert.Equal(t, want.Secrets(), got.Secrets())
		assertSameFiles(t, want.Files(), got.Files())
	}
}

// assertSameFiles checks that two sets of files have the same bytes and
// name the same block around every offset.
func assertSameFiles(t *testing.T, want, got map[string]*hcl.File) {
	t.Helper()
	require.Equal(t, len(want), len(got))
	type contexter interface{ ContextString(int) string }
	for name, w := range want {
		g := got[name]
		require.NotNil(t, g, name)
		assert.Equal(t, w.Bytes, g.Bytes, name)
		assert.Equal(t, w.Body, g.Body, name)
		wn, ok := w.Nav.(contexter)
		require.True(t, ok, name)
		gn, ok := g.Nav.(contexter)
		require.True(t, ok, "%s navigates", name)
		for off := range w.Bytes {
			if wn.ContextString(off) != gn.ContextString(off) {
				assert.Equal(t, wn.ContextString(off), gn.ContextString(off), "%s at %d", name, off)
				break
			}
		}
	}
}
