package sdk

import (
	"context"
	"encoding/json"
)

// Agent roles the engine invokes.
const (
	RoleAnalyst       = "analyst"
	RoleCritic        = "critic"
	RoleWriter        = "writer"
	RoleClarification = "clarification"
	RoleValidator     = "validator" // judges each pass's settled steps against their hypotheses
)

// Agent is an LLM agent plugin (or a deterministic stand-in for one).
type Agent interface {
	// Describe says what the agent is and which roles it plays.
	Describe(ctx context.Context) (AgentInfo, error)
	// Configure applies the agent's config (JSON from the rules file).
	// Problems come back as diagnostics; err is for failures to configure at all.
	Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error)
	// Invoke runs one role. The output must be JSON matching req.Schema when
	// a schema is given.
	Invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error)
}

// AgentInfo describes an agent plugin.
type AgentInfo struct {
	Name         string          `json:"name"`
	Version      string          `json:"version"`                 // the plugin's own version
	SDKVersion   string          `json:"sdk_version"`             // the SDK it was built with; Serve fills in Version when empty
	Roles        []string        `json:"roles"`                   // roles it plays: RoleAnalyst, RoleCritic, …
	Models       []string        `json:"models,omitempty"`        // models it uses; informational
	ConfigSchema json.RawMessage `json:"config_schema,omitempty"` // JSON Schema of its config, if it has one
}

// InvokeRequest is one call of an agent role.
type InvokeRequest struct {
	Role         string          `json:"role"`
	Instructions string          `json:"instructions"` // the rendered prompt template
	Input        json.RawMessage `json:"input"`        // role-specific JSON: draft, review, mode, …
	Context      []Record        `json:"context,omitempty"`
	Schema       json.RawMessage `json:"schema,omitempty"` // JSON Schema the output must satisfy
}

// InvokeResponse is an agent's answer.
type InvokeResponse struct {
	Output json.RawMessage `json:"output"`
	Usage  Usage           `json:"usage"`
}

// Usage counts tokens spent by one call.
type Usage struct {
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	Model            string `json:"model,omitempty"`
}
