package plugin_test

import (
	"context"
	"encoding/json"
	"testing"

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
	for b.Loop() {
		if err := m.Fetch(context.Background(), "docs", req, emit); err != nil {
			b.Fatal(err)
		}
	}
	if count != n*b.N {
		b.Fatalf("got %d records, want %d", count, n*b.N)
	}
}

func BenchmarkFetch1Record(b *testing.B)    { benchFetch(b, 1) }
func BenchmarkFetch10kRecords(b *testing.B) { benchFetch(b, 10_000) }

func BenchmarkInvoke(b *testing.B) {
	m, _ := newManager(b, plugin.Options{}, plugin.Spec{Name: "writer", Kind: plugin.KindAgent, Ref: "builtin:echo"})
	req := sdk.InvokeRequest{
		Role:         sdk.RoleWriter,
		Instructions: "Write the report.",
		Input:        json.RawMessage(`{"query":"what changed?","draft":"…","mode":"discovery"}`),
		Context:      []sdk.Record{{ID: "c1", Kind: sdk.KindCommit, Title: "fix payments rounding"}},
		Schema:       json.RawMessage(`{"type":"object","required":["final_report","confidence_level"]}`),
	}
	if _, err := m.Invoke(context.Background(), "writer", req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Invoke(context.Background(), "writer", req); err != nil {
			b.Fatal(err)
		}
	}
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
	for b.Loop() {
		resp, err := m.Ground(context.Background(), "docs", req)
		if err != nil || !resp.Terms[0].Known {
			b.Fatalf("ground: %+v, %v", resp, err)
		}
	}
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
