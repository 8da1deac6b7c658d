package rules

import (
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/conf"
	"github.com/nous-dev/nous/examples"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExprCacheCompilesAsExprDoes guards the reuse of expr's configuration:
// every condition must compile to the same program, or fail with the same
// error, as expr.Compile with the same options, including when one
// configuration compiles many sources in a row.
func TestExprCacheCompilesAsExprDoes(t *testing.T) {
	rs, diags := LoadFS(examples.DefaultRules(), WithEnv(nil))
	require.False(t, diags.HasErrors(), diags.Error())
	type source struct {
		env any
		src string
	}
	var sources []source
	for _, in := range rs.Intents {
		if in.Detect != nil && in.Detect.When != nil {
			sources = append(sources, source{QueryEnv{}, in.Detect.When.Source})
		}
	}
	for _, m := range rs.Modes {
		for _, c := range []*Condition{m.Keep, m.Warn} {
			if c != nil {
				sources = append(sources, source{ItemEnv{}, c.Source})
			}
		}
	}
	for _, c := range rs.Checks {
		for _, c := range []*Condition{c.Applies, c.Assert} {
			if c != nil {
				sources = append(sources, source{StepEnv{}, c.Source})
			}
		}
	}
	require.NotEmpty(t, sources)
	sources = append(sources,
		source{QueryEnv{}, "query matches '('"},
		source{QueryEnv{}, "now() != nil"},
		source{QueryEnv{}, "query"},
		source{QueryEnv{}, "1 + 2 == 3 && query == 'x'"},
		source{StepEnv{}, "step.nope > 1"},
		source{ItemEnv{}, "item.tier in 1..3 and lower(item.title) contains 'x'"},
	)
	cfg := newConfig(nil)
	cache := newExprCache(1000, cfg.limits(), newMachines(cfg.memoryBudget))
	for _, s := range sources {
		install := func(c *conf.Config) { (&meter{limit: cfg.maxBytes}).install(c, s.src) }
		want, wantErr := expr.Compile(s.src, append(exprOptions(s.env, 1000), install)...)
		got, _, gotErr := cache.get(s.env, s.src).result()
		if wantErr != nil {
			assert.EqualError(t, gotErr, wantErr.Error(), s.src)
			continue
		}
		require.NoError(t, gotErr, s.src)
		assert.Equal(t, want.Disassemble(), got.Disassemble(), s.src)
	}
}

func TestRepeatedConditionsShareAProgram(t *testing.T) {
	src := "mode \"a\" { when = \"query == 'x'\" }\nmode \"b\" { when = \"query == 'x'\" }\nmode \"c\" {\n  keep = \"query == 'x'\"\n}\n"
	rs, diags := Parse("m.hcl", []byte(src))
	require.Empty(t, diags)
	a, b, c := rs.Mode("a").When, rs.Mode("b").When, rs.Mode("c").Keep
	assert.Same(t, a.program, b.program, "same source, same environment")
	assert.NotSame(t, a.program, c.program, "same source, another environment")
	assert.NotEqual(t, a.Range, b.Range, "each keeps its own position")
	ok, err := b.Eval(QueryEnv{Query: "x"})
	require.NoError(t, err)
	assert.True(t, ok)
}
