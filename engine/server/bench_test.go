package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine/server"
)

// BenchmarkPlanHTTP posts /v1/plan over loopback HTTP with keep-alive from
// GOMAXPROCS × 4 clients, the load generator in this process: plans/s, and
// the latency's p50 and p99. "plan" asks one question and "varied" cycles
// through several, both answered from the plan cache after their first
// time; "uncached" asks "plan"'s question in bodies all spelled
// differently (whitespace), so each is planned, and "uncached-varied"
// does so for the several questions (a planner's cost depends on the
// question); "fixed" is the ceiling of this harness on this machine: the
// same server stack (http.Server, guard, mux) and load generator answering
// with the bytes of the "plan" answer without planning.
func BenchmarkPlanHTTP(b *testing.B) {
	const path = "/v1/plan"
	var fixed []byte
	fixedMount := server.Mount{Pattern: "POST /v1/fixed", Handler: func(*server.Server) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(fixed)
		})
	}}
	s := start(b, newFixtures(b), server.Config{Mounts: []server.Mount{fixedMount}})
	resp, out := s.do(b, "POST", path, map[string]string{"query": planQuestions[0]})
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d: %s", resp.StatusCode, out)
	}
	fixed = out
	bodies := make([][]byte, len(planQuestions))
	for i, q := range planQuestions {
		bodies[i], _ = json.Marshal(map[string]string{"query": q})
	}
	b.Run("plan", func(b *testing.B) { postLoad(b, s.url+path, cycle(bodies[:1])) })
	b.Run("varied", func(b *testing.B) { postLoad(b, s.url+path, cycle(bodies)) })
	b.Run("uncached", func(b *testing.B) { postLoad(b, s.url+path, respelled(bodies[:1])) })
	b.Run("uncached-varied", func(b *testing.B) { postLoad(b, s.url+path, respelled(bodies)) })
	b.Run("fixed", func(b *testing.B) {
		postLoad(b, s.url+"/v1/fixed", cycle(bodies[:1]))
		b.ReportMetric(float64(len(fixed)), "resp-B")
	})
}

// cycle is the i-th request's body: bodies in turn.
func cycle(bodies [][]byte) func(i uint64) []byte {
	return func(i uint64) []byte { return bodies[i%uint64(len(bodies))] }
}

// respelled is bodies in turn, each followed by whitespace spelling i in
// base 3, so no two requests share a body (and a cache key) while every
// one asks the same as its question.
func respelled(bodies [][]byte) func(i uint64) []byte {
	return func(i uint64) []byte {
		body := slices.Clip(bodies[i%uint64(len(bodies))])
		for n := i; n > 0; n /= 3 {
			body = append(body, " \t\n"[n%3])
		}
		return body
	}
}

// planQuestions are the questions BenchmarkPlanHTTP plans, the first the
// one it plans alone.
var planQuestions = []string{
	"what changed in this repository last week?",
	"how many open issues are there?",
	"What commits were pushed to project payments last week, and how many open bugs are there?",
	"who contributed to plumbing/format/packfile since v1.17.0?",
	"what did Radek Simko commit in Q1 2025?",
	"which PRs labelled bug are assigned to octocat in the v2.0 milestone?",
	"is CI green on main?",
	"what about hclsyntax?",
}

// postLoad posts the i-th request's body to url from GOMAXPROCS × 4
// clients over keep-alive connections and reports requests/s ("plans/s")
// and the latency's p50 and p99.
func postLoad(b *testing.B, url string, body func(i uint64) []byte) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	var mu sync.Mutex
	var latencies []time.Duration
	var next atomic.Uint64
	b.SetParallelism(4)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			body := body(next.Add(1))
			t0 := time.Now()
			resp, err := client.Post(url, "application/json", bytes.NewReader(body))
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
