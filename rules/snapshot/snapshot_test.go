package snapshot

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenerate(t *testing.T) {
	fsys := fstest.MapFS{
		"a.hcl": {Data: []byte(`nous { min_confidence = 0.35 }
source "s" {
  plugin = env("X", "") != "" ? "builtin:gitlab" : "builtin:git"
  config = { path = ".", depth = -2, big = 12345678901234567890, list = [1, "two", true, null], ok = !false }
}
prompt "writer" {
  template = <<-EOT
    Hello ${upper("x")} %{ if true }yes%{ endif }
  EOT
}
x = { for k, v in { a = 1 } : k => v * 2 if v > 0 }
y = local.list[0].name
`)},
		"b/c.hcl":    {Data: []byte("intent \"i\" {}\n")},
		"d.hcl.json": {Data: []byte(`{"nous": {}}`)},
	}
	src, err := Generate("examples", fsys)
	require.NoError(t, err)
	_, err = parser.ParseFile(token.NewFileSet(), "default_parsed.go", src, 0)
	require.NoError(t, err, "valid Go")
	code := string(src)
	for _, want := range []string{
		`"a.hcl": `, `"b/c.hcl": `, // every native file, at any depth
		`cty.MustParseNumberVal("1.234567890123456789e+19")`, // exact, past float64
		"hclsyntax.OpGreaterThan", `Name: "env"`,
	} {
		assert.True(t, strings.Contains(code, want), "the code has %s", want)
	}
	assert.False(t, strings.Contains(code, "d.hcl.json"), "JSON files are parsed at load")
	assert.True(t, strings.HasPrefix(code, "// Code generated"))
}

func TestGenerateRefuses(t *testing.T) {
	for name, src := range map[string]string{
		"a syntax error":                  "nous {",
		"a splat, whose nodes are shared": "x = a[*].b\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Generate("examples", fstest.MapFS{"a.hcl": {Data: []byte(src)}})
			assert.Error(t, err)
		})
	}
}
