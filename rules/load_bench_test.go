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
