package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPPlan measures the MCP plan tool's round trip as an assistant
// sees it, with the official Go SDK client: over stdio to a `nous mcp`
// process, and over streamable HTTP to /mcp of a `nous serve` process.
// Each call plans a different question (a plan depends on nothing cached),
// and the server's answer is checked, so a failing tool cannot pass as fast.
func BenchmarkMCPPlan(b *testing.B) {
	rules := mcpFixture(b)
	b.Run("stdio", func(b *testing.B) {
		benchPlanTool(b, stdioClient(b, nil, "--rules", rules))
	})
	b.Run("http", func(b *testing.B) {
		exe, err := os.Executable()
		if err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(exe, "--rules", rules, "serve", "--addr", "127.0.0.1:0")
		cmd.Env = append(os.Environ(), envNow+"="+askNow)
		benchPlanTool(b, mcpClient(b, httpTransport(listen(b, cmd), ""), nil))
	})
}

func benchPlanTool(b *testing.B, cs *mcp.ClientSession) {
	ctx := context.Background()
	b.ReportAllocs() // the client's own: the server is another process
	i := 0
	for b.Loop() {
		q := fmt.Sprintf("which commits touched payments/%d last week?", i)
		i++
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "plan", Arguments: map[string]any{"query": q}})
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError {
			b.Fatalf("plan tool: %v", res.Content)
		}
	}
}
