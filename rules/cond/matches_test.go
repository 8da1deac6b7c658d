package cond

import (
	"strconv"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/hashicorp/hcl/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// constantMatches are conditions with constant patterns in each place they
// compile differently: alone on the question (no VM), inside an
// expression (a call of the shared Regexp) and on other strings.
func constantMatches(pattern string) []string {
	p := strconv.Quote(pattern)
	return []string{
		"query matches " + p,
		"!(query matches " + p + ") == false",
		"mode == 'x' || query matches " + p,
		"any(entities['e'] ?? [], # matches " + p + ") || false",
		"lower(query) matches " + p + " || true && query matches " + p,
	}
}

// TestConstantMatchesAsExpr checks conditions with constant patterns
// against expr's own evaluation, with the question folded once or not.
func TestConstantMatchesAsExpr(t *testing.T) {
	patterns := []string{`(?i)\b(?:commits?|merge requests?)\b`, `^\s*(hi|hello)\b`, `(?i)\bproject\s+(\w+)`, `x*`, `[A-Z]{2}-\d+`}
	queries := []string{"", "Hello", "Merge Requests of project Nous", "the commits", "PAY-12 is open", "ſince \u212aelvin"}
	for _, pattern := range patterns {
		for _, src := range constantMatches(pattern) {
			for _, q := range queries {
				assertAsExpr(t, src, q)
			}
		}
	}
}

// FuzzConstantMatches checks that a condition matching a constant pattern
// decides as expr does, whatever the pattern and question.
func FuzzConstantMatches(f *testing.F) {
	f.Add(`(?i)\b(?:bugs?|issues?)\b`, "Open BUGS")
	f.Add(`(?i)\bin(?:to)?\s+(\w+)`, "pushed INTO api")
	f.Add(`(?i)k`, "\u212a")
	f.Fuzz(func(t *testing.T, pattern, query string) {
		if _, err := CompileRegexp(pattern); err != nil {
			return
		}
		for _, src := range constantMatches(pattern) {
			assertAsExpr(t, src, query)
		}
	})
}

// assertAsExpr compiles src against QueryEnv and evaluates it on q as
// expr does, and as a Condition on a NewQueryEnv, a *QueryEnv literal and
// a QueryEnv value.
func assertAsExpr(t *testing.T, src, q string) {
	t.Helper()
	entities := map[string][]string{"e": {q}}
	program, err := expr.Compile(src, expr.Env(QueryEnv{}), expr.AsBool())
	require.NoError(t, err, src)
	want, wantErr := expr.Run(program, QueryEnv{Query: q, Entities: entities})
	c := NewCompiler(testLimits()).Condition(QueryEnv{}, src, nil, hcl.Range{})
	require.Nil(t, c.Compile(), src)
	for _, env := range []any{NewQueryEnv(NewText(q), entities, ""), &QueryEnv{Query: q, Entities: entities}, QueryEnv{Query: q, Entities: entities}} {
		got, err := c.Eval(env)
		if wantErr != nil {
			assert.Error(t, err, "%s on %q", src, q)
			continue
		}
		require.NoError(t, err, "%s on %q", src, q)
		assert.Equal(t, want, got, "%s on %q (%T)", src, q, env)
	}
}
