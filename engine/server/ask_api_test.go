package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newServer is a server with the default rules on the fixtures, without
// HTTP: what the MCP and NLWeb front ends call.
func newServer(t testing.TB, p *fixtures, secret string) *server.Server {
	return server.New(server.Config{
		Snapshots: server.Static(server.NewSnapshot(defaultRules(t), p, redact.New(secret), nil)),
		Clock:     func() time.Time { return now },
	})
}

func TestAskGoAPI(t *testing.T) {
	s := newServer(t, newFixtures(t), "open issues")
	var started []server.Run
	var events []runner.Event
	a, err := s.Ask(context.Background(), server.AskRequest{Query: question, Format: "text"}, server.Watch{
		Started: func(r server.Run) {
			require.Empty(t, events, "the run starts before its first event")
			started = append(started, r)
		},
		Progress: func(ev runner.Event) { events = append(events, ev) },
	})
	require.NoError(t, err)
	require.Len(t, started, 1)
	assert.Equal(t, started[0].ID, a.Run.ID)
	assert.Equal(t, server.StatusRunning, started[0].Status)
	assert.Equal(t, "success", a.Run.Status)
	require.NotNil(t, a.Result)
	assert.Equal(t, a.Run.ID, a.Result.ExecutionID)
	assert.NotEmpty(t, a.Output)
	require.NotEmpty(t, events)
	assert.Equal(t, "done", events[len(events)-1].Kind)
	for _, ev := range events {
		assert.NotContains(t, ev.Description+ev.Detail, "open issues", "events are masked")
	}
}

func TestAskGoAPIRefuses(t *testing.T) {
	s := newServer(t, newFixtures(t), "secret")
	for _, tt := range []struct {
		req   server.AskRequest
		field string
	}{
		{server.AskRequest{Query: "  "}, "query"},
		{server.AskRequest{Query: question, Format: "yaml"}, "format"},
		{server.AskRequest{Query: question, Mode: "nosuch"}, "mode"},
	} {
		_, err := s.Ask(context.Background(), tt.req, server.Watch{})
		var re *server.RequestError
		require.ErrorAs(t, err, &re, "%+v", tt.req)
		assert.Equal(t, tt.field, re.Field)
	}
}

func TestAskGoAPICallerGoesAway(t *testing.T) {
	f := newFixtures(t)
	f.gate = make(chan struct{})
	s := newServer(t, f, "secret")
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-f.fetched; cancel() }()
	a, err := s.Ask(ctx, server.AskRequest{Query: question}, server.Watch{})
	require.NoError(t, err)
	assert.Equal(t, "cancelled", a.Run.Status, "the caller's context ends its run")
	require.NotNil(t, a.Output, "with its partial result")
}

func TestPlanGoAPI(t *testing.T) {
	s := newServer(t, newFixtures(t), "secret")
	out, err := s.Plan(context.Background(), engine.Request{Query: question})
	require.NoError(t, err)
	assert.Contains(t, string(out), `"query": "how many open issues are there?"`)
	_, err = s.Plan(context.Background(), engine.Request{Query: question, Mode: "nosuch"})
	var re *server.RequestError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "mode", re.Field)
}
