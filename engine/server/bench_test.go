package server_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine/server"
)

// BenchmarkPlanHTTP posts /v1/plan over loopback HTTP with keep-alive from
// as many clients as GOMAXPROCS × 4, the load generator in this process:
// plans/s, and the latency's p50 and p99.
func BenchmarkPlanHTTP(b *testing.B) {
	s := start(b, newFixtures(b), server.Config{})
	body := []byte(`{"query":"what changed in this repository last week?"}`)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var mu sync.Mutex
	var latencies []time.Duration
	b.SetParallelism(4)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			resp, err := client.Post(s.url+"/v1/plan", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(latencies)
	if len(latencies) == 0 {
		return
	}
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "plans/s")
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkStoredRun measures what one ended run costs the store: the heap
// it holds per run (its rendered plan, result, history and trace and the
// entry around it), for a run of the issue fixtures.
func BenchmarkStoredRun(b *testing.B) {
	p := newFixtures(b)
	s := start(b, p, server.Config{KeepRuns: 1 << 20, KeepBytes: 1 << 40})
	ask := func(i int) {
		resp, _ := s.do(b, "POST", "/v1/ask", map[string]any{"query": fmt.Sprintf("%s (%d)", question, i), "format": "text"})
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	ask(-1) // warm: the planner, the connection
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ask(i)
		i++
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(i), "heap-B/run")
}
