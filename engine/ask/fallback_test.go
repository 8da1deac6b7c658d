package ask

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scriptedAgents fails the calls of the agents in fail with their error
// and answers every other call; it records who was called.
type scriptedAgents struct {
	fail  map[string]error
	mu    sync.Mutex
	calls []string
}

func (s *scriptedAgents) Invoke(_ context.Context, agent string, _ sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	s.mu.Lock()
	s.calls = append(s.calls, agent)
	s.mu.Unlock()
	if err := s.fail[agent]; err != nil {
		return sdk.InvokeResponse{}, err
	}
	return sdk.InvokeResponse{Output: json.RawMessage(`{"by":"` + agent + `"}`)}, nil
}

func fallbackRules(t *testing.T) *rules.Ruleset {
	t.Helper()
	rs, diags := rules.Parse("agents.hcl", []byte(`
agent "analyst" {
  plugin   = "builtin:openai"
  fallback = "builtin:template"
}
agent "writer" {
  plugin   = "builtin:openai"
  fallback = "builtin:template"
}
agent "critic" {
  plugin = "builtin:openai"
}
`), rules.WithEnv(nil))
	require.Empty(t, diags, diags.Error())
	return rs
}

func TestFallbackAgents(t *testing.T) {
	refused := sdk.Errorf(sdk.KindUnavailable, "openai: POST http://127.0.0.1:9/v1/chat/completions (model m): the server could not be reached: connection refused (after 4 attempt(s))")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name      string
		ctx       context.Context
		agent     string
		err       error
		wantBy    string // who answered; "" when the call fails
		wantCalls []string
		warned    bool
	}{
		{"reachable", context.Background(), "analyst", nil, "analyst", []string{"analyst"}, false},
		{"connection refused", context.Background(), "analyst", refused, "analyst/fallback", []string{"analyst", "analyst/fallback"}, true},
		{"timeout while the run has time", context.Background(), "writer", sdk.Errorf(sdk.KindDeadline, "openai: out of time"), "writer/fallback", []string{"writer", "writer/fallback"}, true},
		{"rejected key fails clearly", context.Background(), "analyst", sdk.Errorf(sdk.KindUnauthorized, "openai: 401"), "", []string{"analyst"}, false},
		{"bad request fails clearly", context.Background(), "analyst", sdk.Errorf(sdk.KindBadRequest, "openai: 400"), "", []string{"analyst"}, false},
		{"cancelled run does not fall back", cancelled, "analyst", refused, "", []string{"analyst"}, false},
		{"agent without a fallback", context.Background(), "critic", refused, "", []string{"critic"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			next := &scriptedAgents{fail: map[string]error{tt.agent: tt.err}}
			var warn bytes.Buffer
			f := newFallbackAgents(next, fallbackRules(t), &warn)
			resp, err := f.Invoke(tt.ctx, tt.agent, sdk.InvokeRequest{Role: sdk.RoleAnalyst})
			if tt.wantBy == "" {
				require.Error(t, err)
				assert.Equal(t, sdk.KindOf(tt.err), sdk.KindOf(err), "the agent's own error, unchanged")
			} else {
				require.NoError(t, err)
				assert.JSONEq(t, `{"by":"`+tt.wantBy+`"}`, string(resp.Output))
			}
			assert.Equal(t, tt.wantCalls, next.calls)
			if tt.warned {
				assert.Equal(t, `nous: warning: agent "`+tt.agent+`" (builtin:openai) is unreachable, so builtin:template answers in its place: `+tt.err.Error()+"\n", warn.String())
				assert.Equal(t, []string{`Agent "` + tt.agent + `" (builtin:openai) could not be reached, so the fallback builtin:template answered in its place.`}, f.caveats())
			} else {
				assert.Empty(t, warn.String())
				assert.Empty(t, f.caveats())
			}
		})
	}
}

func TestFallbackAgentsRememberAnUnreachableEndpoint(t *testing.T) {
	next := &scriptedAgents{fail: map[string]error{"analyst": sdk.Errorf(sdk.KindUnavailable, "down"), "writer": sdk.Errorf(sdk.KindUnavailable, "down")}}
	var warn bytes.Buffer
	f := newFallbackAgents(next, fallbackRules(t), &warn)
	for _, agent := range []string{"analyst", "writer", "analyst", "writer"} {
		_, err := f.Invoke(context.Background(), agent, sdk.InvokeRequest{})
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"analyst", "analyst/fallback", "writer/fallback", "analyst/fallback", "writer/fallback"}, next.calls,
		"the endpoint is tried once; the writer shares it and goes straight to its fallback")
	assert.Equal(t, `nous: warning: agent "analyst" (builtin:openai) is unreachable, so builtin:template answers in its place: down
nous: warning: agent "writer" (builtin:openai) is unreachable, so builtin:template answers in its place: agent "analyst" found it unreachable
`, warn.String(), "one warning per agent")
	assert.Len(t, f.caveats(), 2)
}
