package mcptools_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkPlanTool calls the plan tool over an in-memory transport: the
// MCP layer's own cost (JSON-RPC, schema checks, the text rendering) on
// top of the service's plan, without a process or a socket between.
func BenchmarkPlanTool(b *testing.B) {
	cs := connect(b, newService(b, newFixtures(b)), nil)
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "plan", Arguments: map[string]any{"query": fmt.Sprintf("how many open issues mention payments/%d?", i)}})
		i++
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError {
			b.Fatalf("plan tool: %v", res.Content)
		}
	}
}
