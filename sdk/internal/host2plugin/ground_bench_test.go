package host2plugin_test

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// BenchmarkGround is one Ground round trip in-process (gRPC over a
// loopback socket) for a question's typical handful of terms.
func BenchmarkGround(b *testing.B) {
	src := sdktest.Source(b, &groundingSource{
		fakeSource: &fakeSource{info: sdk.SourceInfo{Filters: []string{"paths", "authors"}}},
		ground:     knownPaths("hclwrite/ast.go", "hclsyntax/parser.go", "gohcl/decode.go"),
	})
	g := src.(sdk.Grounder)
	req := terms(sdk.TermPath, "hclwrite", sdk.TermPath, "docs", sdk.TermAuthor, "radek", sdk.TermRef, "v2.20.0")
	ctx := context.Background()
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		resp, err := g.Ground(ctx, req)
		if err != nil || !resp.Terms[0].Known {
			b.Fatalf("ground: %+v, %v", resp, err)
		}
	}
	cpu.report(b)
}
