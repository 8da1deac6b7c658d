package plugin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
)

// Benchmarks run real plugin subprocesses (this test binary re-executed).

func BenchmarkColdStart(b *testing.B) {
	b.ReportAllocs()
	exe := testExe(b)
	for b.Loop() {
		m, err := plugin.NewManager(plugin.Options{Executable: exe}, source("docs", "builtin:echo"))
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Fetch(context.Background(), "docs", fetchN(1, ""), func(sdk.Record) error { return nil }); err != nil {
			b.Fatal(err)
		}
		_ = m.Close()
	}
}

func benchFetch(b *testing.B, n int) {
	m, _ := newManager(b, plugin.Options{}, source("docs", "builtin:echo"))
	req := fetchN(n, "")
	count := 0
	emit := func(sdk.Record) error { count++; return nil }
	if err := m.Fetch(context.Background(), "docs", req, emit); err != nil { // start outside the timing
		b.Fatal(err)
	}
	b.ReportAllocs()
	count = 0
	cpu := startCPU(m)
	for b.Loop() {
		if err := m.Fetch(context.Background(), "docs", req, emit); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
	if count != n*b.N {
		b.Fatalf("got %d records, want %d", count, n*b.N)
	}
}

func BenchmarkFetch1Record(b *testing.B)    { benchFetch(b, 1) }
func BenchmarkFetch10kRecords(b *testing.B) { benchFetch(b, 10_000) }

// BenchmarkInvoke is one Invoke round trip to a plugin subprocess that runs
// on one thread (sdk/plugin.Config.MaxProcs), as the light built-ins do.
func BenchmarkInvoke(b *testing.B) { benchInvoke(b, "builtin:echo", 0) }

// BenchmarkInvokeDeadline is BenchmarkInvoke with a deadline on every call,
// as the engine's calls have: a timer on the host and, through gRPC's
// timeout header, in the plugin.
func BenchmarkInvokeDeadline(b *testing.B) { benchInvoke(b, "builtin:echo", time.Minute) }

// BenchmarkInvokeAllProcs is BenchmarkInvoke with a plugin on Go's default
// threads, one per CPU, as the git source runs.
func BenchmarkInvokeAllProcs(b *testing.B) { benchInvoke(b, "builtin:echo-allprocs", 0) }

// BenchmarkInvoke220Records is an Invoke whose context holds 220 records,
// as a writer's does on a week of commits, with the plugin on one thread
// and on Go's default: what one thread costs a larger call.
func BenchmarkInvoke220Records(b *testing.B) {
	records := make([]sdk.Record, 220)
	for i := range records {
		records[i] = sdk.Record{
			ID: "c" + strconv.Itoa(i), Source: "git", Kind: sdk.KindCommit,
			Title:  "fix payments rounding in the refund path",
			Body:   strings.Repeat("The refund total is rounded once, at the end. ", 10),
			Time:   time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
			Fields: map[string]any{"author": "ana", "files": int64(3)},
		}
	}
	req := sdk.InvokeRequest{Role: sdk.RoleWriter, Instructions: "Write the report.", Context: records}
	for _, ref := range []string{"builtin:echo", "builtin:echo-allprocs"} {
		b.Run(strings.TrimPrefix(ref, "builtin:"), func(b *testing.B) { benchInvokeWith(b, ref, 0, req) })
	}
}

func benchInvoke(b *testing.B, ref string, timeout time.Duration) {
	benchInvokeWith(b, ref, timeout, sdk.InvokeRequest{
		Role:         sdk.RoleWriter,
		Instructions: "Write the report.",
		Input:        json.RawMessage(`{"query":"what changed?","draft":"…","mode":"discovery"}`),
		Context:      []sdk.Record{{ID: "c1", Kind: sdk.KindCommit, Title: "fix payments rounding"}},
		Schema:       json.RawMessage(`{"type":"object","required":["final_report","confidence_level"]}`),
	})
}

// benchInvokeWith measures Invoke round trips of req to the writer served
// by ref, each call with timeout (0: none), and the CPU they cost.
func benchInvokeWith(b *testing.B, ref string, timeout time.Duration, req sdk.InvokeRequest) {
	m, _ := newManager(b, plugin.Options{}, plugin.Spec{Name: "writer", Kind: plugin.KindAgent, Ref: ref, Timeout: timeout})
	if _, err := m.Invoke(context.Background(), "writer", req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := startCPU(m)
	for b.Loop() {
		if _, err := m.Invoke(context.Background(), "writer", req); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
}

// BenchmarkGround is one Ground round trip to a plugin subprocess.
func BenchmarkGround(b *testing.B) {
	m, _ := newManager(b, plugin.Options{}, source("docs", "builtin:echo"))
	req := sdk.GroundRequest{Terms: []sdk.Term{
		{Kind: sdk.TermRef, Value: "v1.0.0"}, {Kind: sdk.TermProject, Value: "pay"},
		{Kind: sdk.TermAuthor, Value: "ana"}, {Kind: sdk.TermPath, Value: "docs/"},
	}}
	if _, err := m.Ground(context.Background(), "docs", req); err != nil { // start outside the timing
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := startCPU(m)
	for b.Loop() {
		resp, err := m.Ground(context.Background(), "docs", req)
		if err != nil || !resp.Terms[0].Known {
			b.Fatalf("ground: %+v, %v", resp, err)
		}
	}
	cpu.report(b)
}

// cpuClock measures the CPU time (user and system) of this process, the
// host, and of the plugin processes of a Manager, reported beside the wall
// clock: on a shared, busy machine the wall clock mostly measures waiting
// for a core. The plugins' time comes from /proc (Linux only), in ticks of
// 10 ms: it needs a few thousand calls to mean much.
type cpuClock struct {
	pids          []int
	host, plugins time.Duration
}

func startCPU(m *plugin.Manager) cpuClock {
	c := cpuClock{}
	for _, pid := range m.PIDs() {
		c.pids = append(c.pids, pid)
	}
	c.host, c.plugins = hostCPU(), pidsCPU(c.pids)
	return c
}

func (c cpuClock) report(b *testing.B) {
	host, plugins := hostCPU()-c.host, pidsCPU(c.pids)-c.plugins
	b.ReportMetric(float64(host.Microseconds())/float64(b.N), "host-cpu-µs/op")
	if runtime.GOOS == "linux" {
		b.ReportMetric(float64(plugins.Microseconds())/float64(b.N), "plugin-cpu-µs/op")
	}
}

func hostCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pidsCPU is the user and system time the processes pids have used, from
// /proc/PID/stat; 0 for those it cannot read.
func pidsCPU(pids []int) time.Duration {
	var total time.Duration
	for _, pid := range pids {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			continue
		}
		// comm may hold spaces: fields count from its closing parenthesis.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 13 {
			continue
		}
		utime, _ := strconv.ParseInt(fields[11], 10, 64)
		stime, _ := strconv.ParseInt(fields[12], 10, 64)
		total += time.Duration(utime+stime) * 10 * time.Millisecond
	}
	return total
}

// BenchmarkStartRoles starts a manager with five agents, as the default
// rules declare them, and calls each once: agents sharing one plugin and
// config (one process) or each with its own config (five processes), on
// demand one after another or prestarted in parallel first.
func BenchmarkStartRoles(b *testing.B) {
	roles := []string{sdk.RoleAnalyst, sdk.RoleCritic, sdk.RoleWriter, sdk.RoleClarification, sdk.RoleValidator}
	exe := testExe(b)
	for _, shared := range []bool{true, false} {
		specs := make([]plugin.Spec, len(roles))
		for i, r := range roles {
			specs[i] = agent(r, "builtin:echo")
			if !shared {
				specs[i].Config = json.RawMessage(`{"role":"` + r + `"}`)
			}
		}
		for _, prestart := range []bool{false, true} {
			name := map[bool]string{true: "shared", false: "distinct"}[shared] + "/" + map[bool]string{true: "prestarted", false: "on-demand"}[prestart]
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					m, err := plugin.NewManager(plugin.Options{Executable: exe}, specs...)
					if err != nil {
						b.Fatal(err)
					}
					if prestart {
						m.Prestart(context.Background(), nil, roles)
					}
					for _, r := range roles {
						if _, err := m.Invoke(context.Background(), r, sdk.InvokeRequest{Role: sdk.RoleWriter}); err != nil {
							b.Fatal(err)
						}
					}
					_ = m.Close()
				}
			})
		}
	}
}
