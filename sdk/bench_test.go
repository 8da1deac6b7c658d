package sdk_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// Benchmarks over the real protocol: in-process (sdktest, gRPC over a
// loopback unix socket) and in a real plugin subprocess with AutoMTLS, as
// the nous host runs plugins. Targets: Fetch of 1 record ≤ 200 µs, 10k
// records streamed ≤ 30 ms.

func benchFetch(b *testing.B, src sdk.Source, req sdk.FetchRequest, want int) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		err := src.Fetch(ctx, req, func(sdk.Record) error { n++; return nil })
		if err != nil || n != want {
			b.Fatalf("fetch: %d records, %v", n, err)
		}
	}
}

func BenchmarkFetch1Record(b *testing.B) {
	src := sdktest.Source(b, &fakeSource{fetch: emitAll(manyRecords(1))})
	benchFetch(b, src, sdk.FetchRequest{}, 1)
}

func BenchmarkFetch10kRecords(b *testing.B) {
	src := sdktest.Source(b, &fakeSource{fetch: emitAll(manyRecords(10_000))})
	benchFetch(b, src, sdk.FetchRequest{}, 10_000)
}

func BenchmarkInvoke(b *testing.B) {
	out := json.RawMessage(`{"final_report":"Two payment fixes landed.","sources_used":["rec-00000"],"confidence_level":"High"}`)
	agent := sdktest.Agent(b, &fakeAgent{invoke: func(context.Context, sdk.InvokeRequest) (sdk.InvokeResponse, error) {
		return sdk.InvokeResponse{Output: out, Usage: sdk.Usage{PromptTokens: 800, CompletionTokens: 60}}, nil
	}})
	req := sdk.InvokeRequest{
		Role:         sdk.RoleWriter,
		Instructions: "Compose the final report.",
		Input:        json.RawMessage(`{"query":"what changed in payments?","draft":"Two fixes.","mode":"discovery"}`),
		Context:      manyRecords(5),
		Schema:       json.RawMessage(`{"type":"object","required":["final_report"]}`),
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := agent.Invoke(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSubprocess(b *testing.B, n int) {
	client := newClient(sdk.ClientPlugins(), "source")
	b.Cleanup(client.Kill)
	src, err := dispenseSource(client)
	if err != nil {
		b.Fatal(err)
	}
	benchFetch(b, src, sdk.FetchRequest{Filters: map[string][]string{"n": {strconv.Itoa(n)}}}, n)
}

func BenchmarkSubprocessFetch1Record(b *testing.B) { benchSubprocess(b, 1) }

func BenchmarkSubprocessFetch10kRecords(b *testing.B) { benchSubprocess(b, 10_000) }
