package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/render"
	"github.com/nous-dev/nous/engine/server"
)

var planTool = mcp.Tool{
	Name:  "plan",
	Title: "Show how nous would answer a question",
	Description: `Plans a question as ` + "`nous plan`" + ` does, without fetching anything or running an
agent: the intents and entities nous reads in it, the hypotheses it would check (a DAG
with its parallel levels), the retrieval each step makes (source, kind, filters, time
range), the depth and mode chosen, and any diagnostics of the rules.

Use it to see what nous understood before asking, or to check why a question is
answered as it is; it is fast and has no side effects. The text content is the plan as
` + "`nous plan`" + ` prints it; the structured content is the plan as
` + "`nous plan --format json`" + ` prints it.`,
	Annotations: readOnly,
}

// PlanInput is the plan tool's input.
type PlanInput struct {
	Query string `json:"query" jsonschema:"the question to plan, in plain words"`
	Mode  string `json:"mode,omitempty" jsonschema:"a reasoning mode the rules define (the defaults: strict, monitor, discovery); empty lets the rules choose"`
}

// PlanOutput is the plan tool's structured result.
type PlanOutput struct {
	Plan json.RawMessage `json:"plan" jsonschema:"the plan as nous plan --format json prints it: query, mode, profile, reasoning (intents, entities, hypotheses), retrieval plans, validation and diagnostics"`
}

// plan plans the question through the service.
func (t tools) plan(ctx context.Context, _ *mcp.CallToolRequest, in PlanInput) (*mcp.CallToolResult, PlanOutput, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, PlanOutput{}, &server.RequestError{Field: "query", Msg: "the question is empty"}
	}
	out, err := t.srv.Plan(ctx, engine.Request{Query: in.Query, Mode: in.Mode})
	if err != nil {
		return nil, PlanOutput{}, err
	}
	// The text is rendered from the plan's JSON, which the service has
	// already masked.
	var p engine.Plan
	if err := json.Unmarshal(out, &p); err != nil {
		return nil, PlanOutput{}, fmt.Errorf("reading the plan: %w", err)
	}
	var b bytes.Buffer
	if err := render.Text(&b, &p); err != nil {
		return nil, PlanOutput{}, fmt.Errorf("rendering the plan: %w", err)
	}
	return text(b.String()), PlanOutput{Plan: out}, nil
}
