package server_test

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/engine/server"
)

// BenchmarkAcquire is what every run pays to hold its snapshot.
func BenchmarkAcquire(b *testing.B) {
	r, err := server.NewReloader(server.NewSnapshot(defaultRules(b), nil, nil, nil), server.ReloadConfig{
		Load: func(context.Context) (*server.Snapshot, []server.Diagnostic) { return nil, nil },
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_, done := r.Acquire()
			done()
		}
	})
}

// BenchmarkReload reloads a copy of the default rules from disk: load,
// lint, swap and the release of the replaced snapshot.
func BenchmarkReload(b *testing.B) {
	dir := rulesDir(b)
	var rel releases
	load := loaderOf(dir, &rel)
	first, _ := load(context.Background())
	r, err := server.NewReloader(first, server.ReloadConfig{Load: load})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if res := r.Reload(context.Background()); !res.OK {
			b.Fatal(res.Diagnostics)
		}
	}
}
