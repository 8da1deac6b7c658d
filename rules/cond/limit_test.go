package cond

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// modeRules is a rules file whose one mode is selected by when.
func modeRules(when string) string {
	return fmt.Sprintf("mode \"bomb\" {\n  when = %q\n}\n", when)
}

// TestConstantBombsFailAtLoad: conditions that read nothing are evaluated
// at load; the ones that would build gigabytes fail there, with a
// diagnostic on the condition's line naming the limit, instead of
// exhausting memory.
func TestConstantBombsFailAtLoad(t *testing.T) {
	bombs := []string{
		// The review's: 16 bytes doubled 28 times is 4 GiB.
		`len(reduce(1..28, #acc + #acc, 'abcdefghijklmnop')) > 0`,
		`len(repeat(repeat('abcdefgh', 1000000), 1000000)) > 0`,
		`len(join(map(1..100000, repeat('x', 100000)), '')) > 0`,
		`len(map(1..1000, repeat('y', 1000000))) > 0`,
		`len(reduce(1..40, replace(#acc, 'a', 'aa'), 'aaaa')) > 0`,
		`len(toJSON(map(1..300000, 'abcdefghijklmnopqrstuvwxyz0123456789' + 'abcdefghijklmnopqrstuvwxyz0123456789'))) > 0`,
		`len(reduce(1..40, concat(#acc, #acc), ['x'])) > 0`,
		`len(string(reduce(1..30, [#acc, #acc], 'x'))) > 0`,
	}
	for _, bomb := range bombs {
		t.Run(bomb, func(t *testing.T) {
			_, err := compileIn(t, "bomb.hcl", modeRules(bomb), QueryEnv{})
			require.NotNil(t, err, "a bomb must not compile")
			assert.Equal(t, 2, err.Subject.Start.Line, "the error points at the condition")
			assert.Regexp(t, `limit of (\d+ bytes|\d+m?s) for one condition evaluation|memory budget exceeded`, err.Message)
		})
	}
}

// TestRunTimeBombsFailWithTheLimit: a condition that reads the question
// is evaluated at run time, under the same limits; the error names the
// condition's position and the limit.
func TestRunTimeBombsFailWithTheLimit(t *testing.T) {
	cases := []struct {
		when, query string
		opts        []func(*Limits)
		want        string
	}{
		{`len(reduce(1..40, #acc + #acc, query)) > 0`, "abc", nil, "exceeds the limit of 16777216 bytes"},
		{`len(repeat(query, 1000000)) > 0`, strings.Repeat("q", 100), nil, "exceeds the limit of 16777216 bytes"},
		{`len(repeat(query, 1000)) > 0`, "abc", []func(*Limits){func(l *Limits) { l.MaxBytes = 1000 }}, "exceeds the limit of 1000 bytes"},
		// No value grows, but every iteration scans a long question: the
		// time limit ends the evaluation.
		{`all(1..900000, lower(query) != 'x')`, strings.Repeat("Q", 20000), []func(*Limits){func(l *Limits) { l.Timeout = 20 * time.Millisecond }}, "longer than the limit of 20ms"},
	}
	for _, c := range cases {
		t.Run(c.when, func(t *testing.T) {
			when, cerr := compileIn(t, "bomb.hcl", modeRules(c.when), QueryEnv{}, c.opts...)
			require.Nil(t, cerr)
			require.Nil(t, when.Constant)
			_, err := when.Eval(QueryEnv{Query: c.query})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Contains(t, err.Error(), "bomb.hcl:2", "the error names where the condition is")
		})
	}
}

// TestBoundedConditionsStillWork: the checked + and builtins give expr's
// results, typed as before.
func TestBoundedConditionsStillWork(t *testing.T) {
	cases := []struct {
		when  string
		query string
		want  bool
	}{
		{`query + '!' == 'hi!'`, "hi", true},
		{`lower(query + query) == 'abab'`, "AB", true},
		{`len(reduce(1..10, #acc + #acc, 'ab')) == 2048`, "", true},
		{`repeat(query, 3) == 'xxx'`, "x", true},
		{`join(split(query, ','), '+') == 'a+b'`, "a,b", true},
		{`replace(query, 'a', 'bb') == 'bbbb'`, "aa", true},
		{`fromJSON(toJSON([query]))[0] == 'q'`, "q", true},
		{`all(split(query, ' '), len(#) > 0)`, "a b", true},
		{`len(concat([1], [2, 3])) == 3 && 1 + 2 == 3`, "", true},
		{`reduce(1..4, #acc + #, 0) == 10`, "", true},
		{`string(len(query)) + 'x' == '2x'`, "ab", true},
	}
	for _, c := range cases {
		t.Run(c.when, func(t *testing.T) {
			when, cerr := compileIn(t, "ok.hcl", modeRules(c.when), QueryEnv{})
			require.Nil(t, cerr)
			got, err := when.Eval(QueryEnv{Query: c.query})
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

// TestConstantConditionsStayConstant: the checked functions read nothing,
// so lint still sees a condition built from them as constant.
func TestConstantConditionsStayConstant(t *testing.T) {
	c, err := compileIn(t, "c.hcl", modeRules(`repeat('a', 2) + 'b' == 'aab'`), QueryEnv{})
	require.Nil(t, err)
	require.NotNil(t, c.Constant)
	assert.True(t, *c.Constant)
}

// TestConcurrentEvaluationsKeepTheirOwnBudget: evaluations of one metered
// condition take turns, each with the whole byte limit.
func TestConcurrentEvaluationsKeepTheirOwnBudget(t *testing.T) {
	c, cerr := compileIn(t, "c.hcl", modeRules(`len(repeat(query, 600)) == 600 * len(query)`), QueryEnv{}, func(l *Limits) { l.MaxBytes = 1000 })
	require.Nil(t, cerr)
	errs := make(chan error, 16)
	for range 16 {
		go func() {
			ok, err := c.Eval(QueryEnv{Query: "x"})
			if err == nil && !ok {
				err = fmt.Errorf("false")
			}
			errs <- err
		}()
	}
	for range 16 {
		assert.NoError(t, <-errs)
	}
}
