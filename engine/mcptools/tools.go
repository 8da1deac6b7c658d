// Package mcptools serves nous over the Model Context Protocol: the tools
// ask, plan, fetch and lint, each a thin adapter over the service
// (engine/server) that `nous serve` runs, so an assistant's question takes
// the same slots, run store, metrics and rules as one asked over /v1.
package mcptools

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"reflect"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nous-dev/nous/engine/server"
)

// Options configure the MCP server.
type Options struct {
	Version string           // nous's version, told to clients
	Now     func() time.Time // resolves fetch's dates; time.Now when nil
	Logger  *slog.Logger     // the SDK's own log; none when nil
}

// instructions tell a client's model what nous is for.
const instructions = `nous answers questions about a software project from its history: commits, merge
requests, issues and documents, through the sources its rules configure. Use ask for a
question ("what changed last week?", "who changed the parser the most?"); plan to see how
nous would answer one without running it; fetch to read a source's raw records; lint to
check nous rules (HCL) before saving them.`

// New returns the MCP server of srv with the tools ask, plan, fetch and lint.
func New(srv *server.Server, opts Options) *mcp.Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "nous", Title: "nous", Version: opts.Version},
		&mcp.ServerOptions{Instructions: instructions, Logger: opts.Logger})
	t := tools{srv: srv, now: opts.Now}
	mcp.AddTool(s, withSchemas[AskInput, AskOutput](askTool), t.ask)
	mcp.AddTool(s, withSchemas[PlanInput, PlanOutput](planTool), t.plan)
	mcp.AddTool(s, withSchemas[FetchInput, FetchOutput](fetchTool), t.fetch)
	mcp.AddTool(s, withSchemas[LintInput, LintOutput](lintTool), lintRules)
	return s
}

// sessionTimeout closes an HTTP session its client has not used for this long.
const sessionTimeout = 30 * time.Minute

// Mount serves the tools at /mcp of `nous serve` over MCP's streamable
// HTTP transport, behind the server's token and body limit.
func Mount(opts Options) server.Mount {
	return server.Mount{Pattern: "/mcp", Handler: func(srv *server.Server) http.Handler {
		s := New(srv, opts)
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
			&mcp.StreamableHTTPOptions{SessionTimeout: sessionTimeout, Logger: opts.Logger})
	}}
}

// tools are the handlers that call the service.
type tools struct {
	srv *server.Server
	now func() time.Time
}

// rawObject is the schema of a JSON document embedded as it is (the output
// of `nous ask --format json`, `nous plan --format json`).
var rawObject = map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[json.RawMessage](): {Type: "object"}}

// withSchemas is t with the input and output schemas of In and Out, the
// embedded JSON documents typed as objects.
func withSchemas[In, Out any](t mcp.Tool) *mcp.Tool {
	opts := &jsonschema.ForOptions{TypeSchemas: rawObject}
	t.InputSchema = must(jsonschema.For[In](opts))
	t.OutputSchema = must(jsonschema.For[Out](opts))
	return &t
}

// must is v; the tools' types always have a schema, so an error is a bug.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// text is a result whose content is s (the SDK adds the structured output).
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// readOnly marks a tool that changes nothing.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
