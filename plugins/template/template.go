// Package template is a deterministic, offline agent for every role: an
// extractive analyst, a rule-based critic, a Markdown writer, a
// clarification helper and a rule-based validator. It lets `nous ask`
// answer usefully with no LLM, and the same input always gives
// byte-identical output.
package template

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
)

// Version is the template agent's version.
const Version = "1.0.0"

// Agent is the deterministic template agent. It is safe for concurrent use.
type Agent struct {
	cfg atomic.Pointer[Config]
}

// New returns a template agent with the default configuration.
func New() *Agent {
	a := &Agent{}
	cfg := defaultConfig()
	a.cfg.Store(&cfg)
	return a
}

// Describe names the agent and the roles it plays.
func (a *Agent) Describe(context.Context) (sdk.AgentInfo, error) {
	return sdk.AgentInfo{
		Name:         "template",
		Version:      Version,
		SDKVersion:   sdk.Version,
		Roles:        []string{sdk.RoleAnalyst, sdk.RoleClarification, sdk.RoleCritic, sdk.RoleValidator, sdk.RoleWriter},
		Models:       []string{"template"},
		ConfigSchema: config.Schema[Config](),
	}, nil
}

// Configure applies {max_items, language}; a configuration with errors is
// reported and not applied.
func (a *Agent) Configure(_ context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg, diags := parseConfig(raw)
	if !diags.HasErrors() {
		a.cfg.Store(&cfg)
	}
	return diags, nil
}

// Invoke runs one role over the request's input and context records.
func (a *Agent) Invoke(ctx context.Context, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	if err := ctx.Err(); err != nil {
		return sdk.InvokeResponse{}, sdk.Errorf(sdk.KindDeadline, "template %s: %w", req.Role, err)
	}
	cfg := *a.cfg.Load()
	var (
		out any
		err error
	)
	switch req.Role {
	case sdk.RoleAnalyst:
		var in sdk.AnalystInput
		if err = decodeInput(req, &in); err == nil {
			out = analyze(cfg, in, req.Context)
		}
	case sdk.RoleCritic:
		var in sdk.CriticInput
		if err = decodeInput(req, &in); err == nil {
			out = review(cfg, in, req.Context)
		}
	case sdk.RoleWriter:
		var in sdk.WriterInput
		if err = decodeInput(req, &in); err == nil {
			out = compose(cfg, in, req.Context)
		}
	case sdk.RoleClarification:
		var in sdk.ClarificationInput
		if err = decodeInput(req, &in); err == nil {
			out = clarify(cfg, in, req.Context)
		}
	case sdk.RoleValidator:
		var in sdk.ValidatorInput
		if err = decodeInput(req, &in); err == nil {
			out = validate(cfg, in)
		}
	default:
		return sdk.InvokeResponse{}, sdk.Errorf(sdk.KindBadRequest,
			"template: unknown role %q (expected analyst, critic, writer, clarification or validator)", req.Role)
	}
	if err != nil {
		return sdk.InvokeResponse{}, err
	}
	body, err := json.Marshal(out)
	if err != nil {
		return sdk.InvokeResponse{}, fmt.Errorf("template %s: encode output: %w", req.Role, err)
	}
	return sdk.InvokeResponse{Output: body, Usage: sdk.Usage{Model: "template"}}, nil
}

// decodeInput reads the role input; an absent input is an empty one.
func decodeInput(req sdk.InvokeRequest, v any) error {
	if len(req.Input) == 0 || string(req.Input) == "null" {
		return nil
	}
	if err := json.Unmarshal(req.Input, v); err != nil {
		return sdk.Errorf(sdk.KindBadRequest, "template %s: input is not a valid %s input object: %w", req.Role, req.Role, err)
	}
	return nil
}
