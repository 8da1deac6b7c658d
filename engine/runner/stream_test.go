package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cutSource emits n generated commits, then ends its stream with err.
type cutSource struct {
	n   int
	err error
}

func (s cutSource) Fetch(_ context.Context, source string, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
	for i := range s.n {
		if err := emit(sdk.Record{ID: fmt.Sprintf("c%d", i), Source: source, Kind: sdk.KindCommit, Author: "alice", Time: fixedNow}); err != nil {
			return err
		}
	}
	return s.err
}

// A stream that ends in an error after some records answers in part: the
// records are used, the step and the run are partial, and the caveat says
// what arrived; one that ends before any record fails.
func TestStreamCutShortIsPartial(t *testing.T) {
	crash := errors.New("plugin git exited unexpectedly (exit status 7)")
	tests := []struct {
		name    string
		src     cutSource
		status  string
		records int
		caveat  string
	}{
		{"whole stream", cutSource{n: 5}, ResultSuccess, 5, ""},
		{"cut after 5 records", cutSource{n: 5, err: crash}, ResultPartial, 5,
			`Source "git" failed after 5 records (the answer uses them): plugin git exited unexpectedly (exit status 7).`},
		{"cut after 1 record", cutSource{n: 1, err: crash}, ResultPartial, 1, `Source "git" failed after 1 record`},
		{"nothing arrived", cutSource{err: crash}, ResultFailed, 0, `Source "git" failed: plugin git exited unexpectedly (exit status 7).`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := buildPlan(loadRules(t, ""), "what changed?", "discovery", nil,
				stepSpec{id: "h0", desc: "commits", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
				stepSpec{id: "h1", desc: "report", action: "agent", role: "writer", deps: []string{"h0"}},
			)
			res, _ := New(tt.src, standardAgents(), Options{Clock: fixedClock}).Run(context.Background(), plan)
			require.NotNil(t, res)
			assert.Equal(t, tt.status, res.Status)
			assert.Len(t, res.Records, tt.records, "the records that arrived are used")
			if tt.caveat == "" {
				assert.Empty(t, res.Caveats)
				assert.Empty(t, res.Steps[0].Partial)
				return
			}
			require.NotEmpty(t, res.Caveats)
			assert.Contains(t, res.Caveats[len(res.Caveats)-1], tt.caveat)
			if tt.records == 0 {
				return
			}
			assert.Equal(t, engine.StatusCompleted, res.Steps[0].Status)
			assert.Contains(t, res.Steps[0].Partial, strings.Replace(tt.caveat, "the answer uses them", "the step keeps them", 1), "the step says it is partial")
			assert.Equal(t, res.Steps[0].Partial, res.History.Passes[0].Steps[0].Partial)
			for _, e := range res.Trace {
				if e.Action == "retrieve" {
					assert.Equal(t, trace.Partial, e.Outcome, "the trace marks the step partial")
				}
			}
		})
	}
}

// stallSource emits n generated commits, then waits for its deadline, as a
// slow fetch over a long history does.
type stallSource struct{ n int }

func (s stallSource) Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	if err := (cutSource{n: s.n}).Fetch(ctx, source, req, emit); err != nil {
		return err
	}
	<-ctx.Done()
	return &sdk.Error{Kind: sdk.KindDeadline, Message: "plugin git: Fetch did not finish within its deadline", Err: context.DeadlineExceeded}
}

// A TTL that runs out while a retrieval streams fails the run with one
// plain account: the time ran out while fetching, the records that arrived
// were not analysed, the question was not answered; never a source caveat
// that says the (absent) answer uses them.
func TestTTLWhileFetchingSaysSo(t *testing.T) {
	plan := buildPlan(loadRules(t, "loop {\n  ttl = \"50ms\"\n}\n"), "what changed?", "discovery", nil,
		stepSpec{id: "h0", desc: "commits", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
		stepSpec{id: "h1", desc: "report", action: "agent", role: "writer", deps: []string{"h0"}},
	)
	res, _ := New(stallSource{n: 3}, standardAgents(), Options{}).Run(context.Background(), plan)
	require.NotNil(t, res)
	assert.Equal(t, ResultFailed, res.Status)
	require.NotEmpty(t, res.Caveats)
	assert.Equal(t, `No report: the time ran out (TTL 50ms) while fetching from "git" (3 records arrived, not analysed): the question was not answered; h1 did not run (the writer h1 among them).`, res.Caveats[0])
	for _, c := range res.Caveats {
		assert.NotContains(t, c, "the answer uses them")
	}
	assert.Contains(t, res.Caveats[len(res.Caveats)-1], `Source "git" failed after 3 records (no report was written from them)`)
}
