package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/plugins/template"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// manySource emits n small commits, by len(largeAuthors) authors in turn,
// one a minute back from the fixed clock, without holding them.
type manySource struct{ n int }

var largeAuthors = []string{"alice", "bob", "carol", "dan", "erin", "frank", "grace"}

func (s manySource) Fetch(ctx context.Context, source string, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
	for i := range s.n {
		rec := sdk.Record{ID: fmt.Sprintf("c%07d", i), Source: source, Kind: sdk.KindCommit, Title: fmt.Sprintf("change %d", i),
			Author: largeAuthors[i%len(largeAuthors)], Time: fixedNow.Add(-time.Duration(i) * time.Minute)}
		if err := emit(rec); err != nil {
			return err
		}
	}
	return nil
}

// wireAgents invokes one agent plugin over the real protocol and keeps
// the size of every request as JSON, and the writer's input.
type wireAgents struct {
	agent   sdk.Agent
	mu      sync.Mutex
	largest int
	writer  sdk.WriterInput
}

func (w *wireAgents) Invoke(ctx context.Context, _ string, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return sdk.InvokeResponse{}, err
	}
	w.mu.Lock()
	w.largest = max(w.largest, len(b))
	if req.Role == sdk.RoleWriter {
		_ = json.Unmarshal(req.Input, &w.writer)
	}
	w.mu.Unlock()
	return w.agent.Invoke(ctx, req)
}

// largePlan retrieves from git and writes a report about it.
func largePlan(t testing.TB) *engine.Plan {
	p := buildPlan(loadRules(t, ""), "how many commits were made?", "discovery", nil,
		stepSpec{id: "h0", desc: "commits", action: "retrieve", retrieve: []planSpec{{source: "git"}}},
		stepSpec{id: "h1", desc: "report", action: "agent", role: "writer", deps: []string{"h0"}},
	)
	p.Reasoning.Intents = []engine.Intent{{Type: "query_commits", Confidence: 0.9}}
	return p
}

// A retrieval far larger than an agent request can carry: the agents get
// a bounded selection with counts over the whole set, and the answer
// counts every record.
func TestLargeRetrievalSendsAgentsABoundedSelection(t *testing.T) {
	const n = 200_000
	agents := &wireAgents{agent: sdktest.Agent(t, template.New())}
	res, err := New(manySource{n: n}, agents, Options{Clock: fixedClock}).Run(context.Background(), largePlan(t))
	require.NoError(t, err)
	assert.Equal(t, ResultSuccess, res.Status, res.Caveats)
	assert.Less(t, agents.largest, 4<<20, "every agent request stays small")
	require.Len(t, res.Answers, 1)
	a := res.Answers[0]
	assert.Equal(t, n, a.Count, "the answer counts every record")
	assert.Equal(t, len(largeAuthors), a.Authors)
	assert.Equal(t, fmt.Sprintf("%d commits by %d authors", n, len(largeAuthors)), a.Result)
	assert.LessOrEqual(t, len(res.Records), rules.DefaultMaxRecords, "the result holds the selection shown")
	assert.Equal(t, n-len(res.Records), res.Omitted)
	assert.Equal(t, "c0000000", res.Records[0].ID, "the newest are shown")

	ev := agents.writer.Evidence
	require.NotNil(t, ev, "the writer is told about the whole set")
	assert.Equal(t, n, ev.Total)
	assert.Equal(t, len(res.Records), ev.Shown)
	assert.Equal(t, map[string]int{sdk.KindCommit: n}, ev.Kinds)
	for i, name := range largeAuthors {
		want := n / len(largeAuthors)
		if i < n%len(largeAuthors) {
			want++
		}
		assert.Equal(t, want, ev.Authors[name], name)
	}
	assert.Equal(t, fixedNow.Add(-(n-1)*time.Minute), ev.Earliest)
	assert.Equal(t, fixedNow, ev.Latest)
}

// BenchmarkLargeRetrieval runs a retrieval of n records and a writer over
// the real protocol; B/op and the held-heap metric show memory follows
// loop.max_records, not n.
func BenchmarkLargeRetrieval(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			agents := &wireAgents{agent: sdktest.Agent(b, template.New())}
			e := New(manySource{n: n}, agents, Options{Clock: fixedClock})
			plan := largePlan(b)
			b.ReportAllocs()
			var res *Result
			for b.Loop() {
				var err error
				if res, err = e.Run(context.Background(), plan); err != nil {
					b.Fatal(err)
				}
			}
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MiB-heap-after")
			b.ReportMetric(float64(agents.largest)/(1<<10), "KiB-largest-request")
			runtime.KeepAlive(res)
		})
	}
}
