package cond

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// BenchmarkConditionEval evaluates a typical detect condition.
func BenchmarkConditionEval(b *testing.B) {
	c := NewCompiler(testLimits()).Condition(QueryEnv{}, `query matches '(?i)\\bverify\\b' || 'query_commits' in intent_types`, nil, hcl.Range{})
	if err := c.Compile(); err != nil {
		b.Fatal(err)
	}
	env := &QueryEnv{Query: "please verify the release", IntentTypes: []string{"query_status"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Eval(env); err != nil {
			b.Fatal(err)
		}
	}
}
