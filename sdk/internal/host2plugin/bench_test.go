package host2plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/host2plugin"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// Benchmarks over the real protocol: in-process (sdktest, gRPC over a
// loopback unix socket) and in a real plugin subprocess with AutoMTLS, as
// the nous host runs plugins. Targets: Fetch of 1 record ≤ 200 µs, 10k
// records streamed ≤ 30 ms. In-process, cpu-ns/op counts both sides.

func benchFetch(b *testing.B, src sdk.Source, req sdk.FetchRequest, want int) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		n := 0
		err := src.Fetch(ctx, req, func(sdk.Record) error { n++; return nil })
		if err != nil || n != want {
			b.Fatalf("fetch: %d records, %v", n, err)
		}
	}
	cpu.report(b)
}

// cpuClock measures this process's CPU time (user + system), reported as
// cpu-ns/op beside the wall-clock ns/op: on a shared, busy machine the
// wall clock mostly measures waiting for a core.
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock { return cpuClock{start: processCPU()} }

func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(processCPU()-c.start)/float64(b.N), "cpu-ns/op")
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkFetch1Record(b *testing.B) {
	src := sdktest.Source(b, &fakeSource{fetch: emitAll(manyRecords(1))})
	benchFetch(b, src, sdk.FetchRequest{}, 1)
}

func BenchmarkFetch10kRecords(b *testing.B) {
	src := sdktest.Source(b, &fakeSource{fetch: emitAll(manyRecords(10_000))})
	benchFetch(b, src, sdk.FetchRequest{}, 10_000)
}

// BenchmarkFetch10kPlainRecords streams records without extra fields, to
// show what typed fields cost.
func BenchmarkFetch10kPlainRecords(b *testing.B) {
	records := manyRecords(10_000)
	for i := range records {
		records[i].Fields = nil
	}
	src := sdktest.Source(b, &fakeSource{fetch: emitAll(records)})
	benchFetch(b, src, sdk.FetchRequest{}, 10_000)
}

func BenchmarkInvoke(b *testing.B) {
	benchInvoke(b, sdktest.Agent(b, &fakeAgent{invoke: writerAgent}), writerRequest())
}

// BenchmarkInvoke220Records is a writer call with the context of the cold
// benchmark's question (220 commits), which an ask sends to each of its
// analyst, critic and writer calls.
func BenchmarkInvoke220Records(b *testing.B) {
	req := writerRequest()
	req.Context = manyRecords(220)
	benchInvoke(b, sdktest.Agent(b, &fakeAgent{invoke: writerAgent}), req)
}

// writerRequest is a writer call with five context records.
func writerRequest() sdk.InvokeRequest {
	return sdk.InvokeRequest{
		Role:         sdk.RoleWriter,
		Instructions: "Compose the final report.",
		Input:        json.RawMessage(`{"query":"what changed in payments?","draft":"Two fixes.","mode":"discovery"}`),
		Context:      manyRecords(5),
		Schema:       json.RawMessage(`{"type":"object","required":["final_report"]}`),
	}
}

func benchInvoke(b *testing.B, agent sdk.Agent, req sdk.InvokeRequest) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		if _, err := agent.Invoke(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
}

func benchSubprocess(b *testing.B, n int) {
	client := newClient(host2plugin.ClientPlugins(), "source")
	b.Cleanup(client.Kill)
	src, err := dispenseSource(client)
	if err != nil {
		b.Fatal(err)
	}
	pid := client.ReattachConfig().Pid
	start, ok := childCPU(pid)
	benchFetch(b, src, sdk.FetchRequest{Filters: map[string][]string{"n": {strconv.Itoa(n)}}}, n)
	if end, ok2 := childCPU(pid); ok && ok2 {
		b.ReportMetric(float64(end-start)/float64(b.N), "plugin-cpu-ns/op")
	}
}

// childCPU reads a running process's CPU time (user + system) from
// /proc, in clock ticks of 10 ms: coarse, so meaningful over a second or
// more of benchmarking.
func childCPU(pid int) (time.Duration, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(stat)
	// utime and stime are the 14th and 15th fields; the command name (2nd)
	// is parenthesised and may hold spaces, so count from its end.
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}

func BenchmarkSubprocessFetch1Record(b *testing.B) { benchSubprocess(b, 1) }

func BenchmarkSubprocessFetch10kRecords(b *testing.B) { benchSubprocess(b, 10_000) }

func BenchmarkSubprocessInvoke(b *testing.B) {
	client := newClient(host2plugin.ClientPlugins(), "agent")
	b.Cleanup(client.Kill)
	conn, err := client.Client()
	if err != nil {
		b.Fatal(err)
	}
	raw, err := conn.Dispense(host2plugin.PluginAgent)
	if err != nil {
		b.Fatal(err)
	}
	benchInvoke(b, raw.(sdk.Agent), writerRequest())
}
