package plugin_test

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
)

// BenchmarkWarmManager is the Manager of a reloaded ruleset whose plugin did
// not change: built, its first call served by the running process, closed.
// BenchmarkColdStart is the same with a process of its own.
func BenchmarkWarmManager(b *testing.B) {
	shared := plugin.NewProcesses()
	opts := plugin.Options{Executable: testExe(b), Shared: shared}
	first, err := plugin.NewManager(opts, source("docs", "builtin:echo"))
	if err != nil {
		b.Fatal(err)
	}
	defer first.Close()
	discard := func(sdk.Record) error { return nil }
	if err := first.Fetch(context.Background(), "docs", fetchN(1, ""), discard); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		m, err := plugin.NewManager(opts, source("docs", "builtin:echo"))
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Fetch(context.Background(), "docs", fetchN(1, ""), discard); err != nil {
			b.Fatal(err)
		}
		_ = m.Close()
	}
}
