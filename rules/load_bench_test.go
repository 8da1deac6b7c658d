package rules

import (
	"os"
	"testing"

	"github.com/nous-dev/nous/examples"
)

// BenchmarkLoadDefault loads and compiles the embedded default rules
// (target ≤ 2 ms).
func BenchmarkLoadDefault(b *testing.B) {
	fsys := examples.DefaultRules()
	env := WithEnv(nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := LoadFS(fsys, env); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

// BenchmarkParseTestdata loads a realistic rules file covering every block.
func BenchmarkParseTestdata(b *testing.B) {
	src, err := os.ReadFile("testdata/valid/nous.hcl")
	if err != nil {
		b.Fatal(err)
	}
	env := WithEnv(nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := Parse("nous.hcl", src, env); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

// BenchmarkConditionEval evaluates a typical detect condition.
func BenchmarkConditionEval(b *testing.B) {
	rs, diags := Parse("c.hcl", []byte(`mode "m" { when = "query matches '(?i)\\\\bverify\\\\b' || 'query_commits' in intent_types" }`))
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	c := rs.Mode("m").When
	env := &QueryEnv{Query: "please verify the release", IntentTypes: []string{"query_status"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Eval(env); err != nil {
			b.Fatal(err)
		}
	}
}
