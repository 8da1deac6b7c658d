package cond

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConditionEval(t *testing.T) {
	c := modeWhen(t, `"query matches '(?i)verify' && 'query_commits' in intent_types && len(entities.projects) == 1"`)
	tests := []struct {
		name string
		env  any
		want bool
	}{
		{"all hold", QueryEnv{Query: "please VERIFY", IntentTypes: []string{"query_commits"}, Entities: map[string][]string{"projects": {"a"}}}, true},
		{"pointer env", &QueryEnv{Query: "verify", IntentTypes: []string{"query_commits"}, Entities: map[string][]string{"projects": {"a"}}}, true},
		{"query differs", QueryEnv{Query: "hello", IntentTypes: []string{"query_commits"}}, false},
		{"missing entity", QueryEnv{Query: "verify", IntentTypes: []string{"query_commits"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Eval(tt.env)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestConditionEvalWrongEnvironment(t *testing.T) {
	c := modeWhen(t, `"query == 'x'"`)
	_, err := c.Eval(ItemEnv{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "QueryEnv")
}

func TestNilConditionIsTrue(t *testing.T) {
	var c *Condition
	ok, err := c.Eval(nil)
	require.NoError(t, err)
	assert.True(t, ok)
}

func TestConstantConditions(t *testing.T) {
	tests := []struct {
		when     string
		constant *bool
	}{
		{`"true"`, ptr(true)},
		{`"1 == 2"`, ptr(false)},
		{`"'a' in ['b', 'c']"`, ptr(false)},
		{`"len([1, 2]) == 2 || false"`, ptr(true)},
		{`"query == 'x'"`, nil},
		{`"all([1, 2], # > 0)"`, ptr(true)},
		{`"let x = 1; x == 1"`, nil}, // conservative: variables make it non-constant
	}
	for _, tt := range tests {
		t.Run(tt.when, func(t *testing.T) {
			c := modeWhen(t, tt.when)
			assert.Equal(t, tt.constant, c.Constant)
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestConditionMemoryBudget(t *testing.T) {
	c := modeWhen(t, `"len(map(1..100000, # * 2)) > 0 && query == ''"`, func(l *Limits) { l.MemoryBudget = 1000 })
	_, err := c.Eval(QueryEnv{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "memory budget")
}
