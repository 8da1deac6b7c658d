package git

import (
	"context"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// BenchmarkWarm asks one source the same question again and again, as
// nous serve's warm plugin is asked: the 200 newest hours of the
// benchmark repository with stats (the serve benchmark's question) and
// without, a tag range, a path's whole history, and a grounding with an
// author, a path and a tag. cpu-ms/op is this process's CPU time (every
// thread's, not git's processes'), steadier than the time on a busy
// machine.
func BenchmarkWarm(b *testing.B) {
	dir := benchRepo(b)
	fetches := []struct {
		name  string
		stats bool
		req   sdk.FetchRequest
	}{
		{"since/stats", true, sdk.FetchRequest{Since: benchSince}},
		{"since/no-stats", false, sdk.FetchRequest{Since: benchSince}},
		{"range", false, sdk.FetchRequest{Filters: map[string][]string{"revisions": {benchRange}}}},
		{"path", false, sdk.FetchRequest{Filters: map[string][]string{"path": {benchPath}}}},
	}
	for _, f := range fetches {
		b.Run(f.name, func(b *testing.B) {
			s := benchSource(b, dir, f.stats)
			fetch := func() int {
				n := 0
				if err := s.Fetch(context.Background(), f.req, func(sdk.Record) error { n++; return nil }); err != nil {
					b.Fatal(err)
				}
				return n
			}
			fetch()
			b.ReportAllocs()
			cpu := processCPU()
			n := 0
			for b.Loop() {
				n = fetch()
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(n), "commits/op")
		})
	}
	b.Run("ground", func(b *testing.B) {
		s := benchSource(b, dir, true)
		req := sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermAuthor, Value: "alice"}, {Kind: sdk.TermPath, Value: "ledger"}, {Kind: sdk.TermRef, Value: "v0.20.0"}}}
		if _, err := s.Ground(context.Background(), req); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		cpu := processCPU()
		for b.Loop() {
			if _, err := s.Ground(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
	})
}

// reportCPU reports the process's CPU time since start per operation.
func reportCPU(b *testing.B, start time.Duration) {
	if now := processCPU(); now > 0 {
		b.ReportMetric(float64(now-start)/float64(b.N)/float64(time.Millisecond), "cpu-ms/op")
	}
}
