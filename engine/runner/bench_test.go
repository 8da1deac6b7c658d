package runner

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/require"
)

// noRules is a ruleset that declares nothing: the defaults alone.
func noRules(b *testing.B) *rules.Ruleset {
	rs, diags := rules.Parse("empty.hcl", nil)
	require.False(b, diags.HasErrors(), diags.Error())
	return rs
}

// BenchmarkNoopChain3 is the executor's own overhead: a 3-step chain of
// no-op steps, one pass, no plugin calls.
func BenchmarkNoopChain3(b *testing.B) {
	benchNoop(b, stepSpec{id: "h0", desc: "a"},
		stepSpec{id: "h1", desc: "b", deps: []string{"h0"}},
		stepSpec{id: "h2", desc: "c", deps: []string{"h1"}})
}

// BenchmarkNoopFanIn is the executor's overhead on a 2-into-1 fan-in of
// no-op steps: two independent steps, then one that waits for both.
func BenchmarkNoopFanIn(b *testing.B) {
	benchNoop(b, stepSpec{id: "h0", desc: "a"},
		stepSpec{id: "h1", desc: "b"},
		stepSpec{id: "h2", desc: "c", deps: []string{"h0", "h1"}})
}

// benchNoop runs a plan of no-op steps with the defaults alone.
func benchNoop(b *testing.B, steps ...stepSpec) {
	plan := buildPlan(noRules(b), "q", "discovery", nil, steps...)
	ex := New(nil, nil, Options{Clock: fixedClock})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := ex.Run(ctx, plan)
		if err != nil || res.Status != ResultSuccess {
			b.Fatal(err, res.Status)
		}
	}
}

// BenchmarkCommitChainFakes is a full retrieve → rank → analyst/critic/
// writer run against in-process fakes.
func BenchmarkCommitChainFakes(b *testing.B) {
	rs := loadRules(b, retrievalCheck)
	plan := commitChain(rs, "discovery")
	ex := New(gitSource(commits(20)), standardAgents(), Options{Clock: fixedClock})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ex.Run(ctx, plan); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommitChainFakesTraceOff is BenchmarkCommitChainFakes with
// reasoning_trace { enabled = false }: the trace's overhead is the
// difference.
func BenchmarkCommitChainFakesTraceOff(b *testing.B) {
	rs := loadRules(b, retrievalCheck+"reasoning_trace {\n  enabled = false\n}\n")
	plan := commitChain(rs, "discovery")
	ex := New(gitSource(commits(20)), standardAgents(), Options{Clock: fixedClock})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ex.Run(ctx, plan); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTwoChainsSlowAgents runs two independent chains (retrieval, a
// step without I/O, a writer) whose agents each take a millisecond, as a
// stand-in for an LLM: the chains' analyst → critic → writer calls
// overlap, so a run takes about three agent calls and the validator's,
// not six as in launch order (the order of durable runs recorded before).
func BenchmarkTwoChainsSlowAgents(b *testing.B) {
	rs := loadRules(b, "")
	agents := standardAgents()
	for role, fn := range agents.roles {
		agents.roles[role] = func(req sdk.InvokeRequest) (string, error) { time.Sleep(time.Millisecond); return fn(req) }
	}
	plan, src := twoChains(rs)
	for _, inOrder := range []bool{false, true} {
		b.Run(map[bool]string{false: "overlapping", true: "in-launch-order"}[inOrder], func(b *testing.B) {
			ex := New(src, agents, Options{Clock: fixedClock, SettleInLaunchOrder: inOrder})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ex.Run(context.Background(), plan); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
