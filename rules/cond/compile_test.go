package cond

import (
	"io/fs"
	"maps"
	"slices"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nous-dev/nous/examples"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zclconf/go-cty/cty"
)

// TestCompilerCompilesAsExprDoes guards the reuse of expr's configuration:
// every condition must compile to the same program, or fail with the same
// error, as expr.Compile with the same options (and the same calls for
// constant patterns), including when one configuration compiles many
// sources in a row.
func TestCompilerCompilesAsExprDoes(t *testing.T) {
	sources := defaultConditions(t)
	require.NotEmpty(t, sources)
	sources = append(sources,
		source{QueryEnv{}, "query matches '('"},
		source{QueryEnv{}, "now() != nil"},
		source{QueryEnv{}, "query"},
		source{QueryEnv{}, "1 + 2 == 3 && query == 'x'"},
		source{StepEnv{}, "step.nope > 1"},
		source{ItemEnv{}, "item.tier in 1..3 and lower(item.title) contains 'x'"},
	)
	limits := testLimits()
	x := NewCompiler(limits)
	for _, s := range sources {
		install := func(c *conf.Config) {
			(&meter{limit: limits.MaxBytes}).install(c, s.src)
			installMatches(c)
			c.Visitors = append(c.Visitors, constPatterns{x})
		}
		want, wantErr := expr.Compile(s.src, append(exprOptions(s.env, limits.MaxNodes), install)...)
		got, _, gotErr := x.get(s.env, s.src).result()
		if wantErr != nil {
			assert.EqualError(t, gotErr, wantErr.Error(), s.src)
			continue
		}
		require.NoError(t, gotErr, s.src)
		assert.Equal(t, want.Disassemble(), got.Disassemble(), s.src)
	}
}

// constPatterns is the Compiler's rewrite of matches with a constant
// pattern, as an expr patcher.
type constPatterns struct{ x *Compiler }

func (p constPatterns) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BinaryNode)
	if !ok || b.Operator != "matches" {
		return
	}
	lit, ok := b.Right.(*ast.StringNode)
	if !ok {
		return
	}
	if re, err := p.x.Regexp(lit.Value); err == nil {
		callRegexps(node, map[*ast.BinaryNode]constMatch{b: {re: re, pattern: lit}})
	}
}

// source is a condition and the environment it is compiled against.
type source struct {
	env any
	src string
}

// defaultConditions returns the conditions of the default rules: the
// attributes named as conditions, with their blocks' environments.
func defaultConditions(t *testing.T) []source {
	envs := map[string]any{"when": QueryEnv{}, "keep": ItemEnv{}, "warn": ItemEnv{}, "applies": StepEnv{}, "assert": StepEnv{}}
	var out []source
	var walk func(body *hclsyntax.Body)
	walk = func(body *hclsyntax.Body) {
		for _, name := range slices.Sorted(maps.Keys(body.Attributes)) {
			env, ok := envs[name]
			if !ok {
				continue
			}
			v, diags := body.Attributes[name].Expr.Value(nil)
			if !diags.HasErrors() && v.Type() == cty.String {
				out = append(out, source{env, v.AsString()})
			}
		}
		for _, b := range body.Blocks {
			walk(b.Body)
		}
	}
	fsys := examples.DefaultRules()
	names, err := fs.Glob(fsys, "*.hcl")
	require.NoError(t, err)
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		require.NoError(t, err)
		f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		require.False(t, diags.HasErrors(), diags.Error())
		walk(f.Body.(*hclsyntax.Body))
	}
	return out
}

func TestRepeatedConditionsShareAProgram(t *testing.T) {
	src := []byte("mode \"a\" { when = \"query == 'x'\" }\nmode \"b\" { when = \"query == 'x'\" }\n")
	at := func(line int) hcl.Range {
		return hcl.Range{Filename: "m.hcl", Start: hcl.Pos{Line: line, Column: 1}, End: hcl.Pos{Line: line, Column: 2}}
	}
	x := NewCompiler(testLimits())
	a := x.Condition(QueryEnv{}, "query == 'x'", src, at(1))
	b := x.Condition(QueryEnv{}, "query == 'x'", src, at(2))
	c := x.Condition(ItemEnv{}, "query == 'x'", src, at(3))
	for _, c := range []*Condition{a, b, c} {
		require.Nil(t, c.Compile())
	}
	assert.Same(t, a.program, b.program, "same source, same environment")
	assert.NotSame(t, a.program, c.program, "same source, another environment")
	assert.NotEqual(t, a.Range, b.Range, "each keeps its own position")
	ok, err := b.Eval(QueryEnv{Query: "x"})
	require.NoError(t, err)
	assert.True(t, ok)
}
