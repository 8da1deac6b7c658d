package ask

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
)

// FallbackSuffix names the manager's slot of an agent's fallback plugin:
// agent "writer" falls back to agent "writer/fallback".
const FallbackSuffix = "/fallback"

// fallbackAgents is the agent layer the executor calls through: an agent
// whose plugin cannot be reached (connection refused, DNS failure, 5xx
// after the plugin's retries, a timeout) is answered by the fallback plugin
// its rules name, with a warning on Warnings and a caveat for the result.
// Once a plugin is found unreachable, every agent it serves with the same
// config falls back at once for the rest of the run, instead of paying the
// retries again. Errors that a retry elsewhere would not fix (a rejected
// key, a bad request) are returned as they are.
type fallbackAgents struct {
	next  engine.Agents
	by    map[string]agentPlugin // agent name → its plugin and fallback
	warn  io.Writer
	mu    sync.Mutex
	down  map[string]outage // plugin key → the failure that showed it unreachable
	fell  map[string]bool   // agents that fell back
	notes []string          // caveats, in the order agents fell back
}

// outage is the first failure of an unreachable plugin: the agent whose
// call failed, and the error.
type outage struct{ agent, reason string }

// agentPlugin is what an agent block says about its plugins.
type agentPlugin struct {
	ref, fallback, key string // key: ref and config, the same endpoint
}

// newFallbackAgents wraps next for the agents of rs that name a fallback;
// the others are passed through.
func newFallbackAgents(next engine.Agents, rs *rules.Ruleset, warn io.Writer) *fallbackAgents {
	f := &fallbackAgents{next: next, by: map[string]agentPlugin{}, warn: warn, down: map[string]outage{}, fell: map[string]bool{}}
	for _, ag := range rs.Agents {
		if ag.Fallback == "" {
			continue
		}
		cfg := ag.Config
		if cfg == nil {
			cfg = map[string]any{} // no config and an empty one are the same endpoint
		}
		config, _ := json.Marshal(cfg) // the plugin specs were built from it: it marshals
		f.by[ag.Name] = agentPlugin{ref: ag.Plugin, fallback: ag.Fallback, key: ag.Plugin + "\x00" + string(config)}
	}
	return f
}

// Invoke calls the agent, or its fallback when the agent's plugin is
// unreachable.
func (f *fallbackAgents) Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	p, ok := f.by[agent]
	if !ok {
		return f.next.Invoke(ctx, agent, req)
	}
	f.mu.Lock()
	_, down := f.down[p.key]
	f.mu.Unlock()
	if !down {
		resp, err := f.next.Invoke(ctx, agent, req)
		if err == nil || !unreachable(ctx, err) {
			return resp, err
		}
		f.mu.Lock()
		if _, seen := f.down[p.key]; !seen {
			f.down[p.key] = outage{agent: agent, reason: err.Error()}
		}
		f.mu.Unlock()
	}
	f.fallBack(agent, p)
	return f.next.Invoke(ctx, agent+FallbackSuffix, req)
}

// fallBack warns, once per agent, that its fallback answers.
func (f *fallbackAgents) fallBack(agent string, p agentPlugin) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fell[agent] {
		return
	}
	f.fell[agent] = true
	why := f.down[p.key].reason
	if first := f.down[p.key].agent; first != agent {
		why = fmt.Sprintf("agent %q found it unreachable", first)
	}
	fmt.Fprintf(f.warn, "nous: warning: agent %q (%s) is unreachable, so %s answers in its place: %s\n", agent, p.ref, p.fallback, why)
	f.notes = append(f.notes, fmt.Sprintf("Agent %q (%s) could not be reached, so the fallback %s answered in its place.", agent, p.ref, p.fallback))
}

// caveats are the result's caveats about agents that fell back, in the
// order they did.
func (f *fallbackAgents) caveats() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.notes...)
}

// unreachable reports whether err says the agent's endpoint could not be
// reached while the caller still has time: a fallback could answer.
func unreachable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false // the run ended or was cancelled: nothing should answer now
	}
	switch sdk.KindOf(err) {
	case sdk.KindUnavailable, sdk.KindDeadline:
		return true
	}
	return false
}
