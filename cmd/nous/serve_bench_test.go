package main

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// BenchmarkServeAsk asks the cold benchmark's question of the fixture
// repository two ways in one run: through a `nous serve` whose plugins are
// warm, over loopback HTTP, and as a `nous ask` process; both print the
// same report. It reports the time of each, their ratio, and the resident
// size of the idle server and of its plugin processes.
func BenchmarkServeAsk(b *testing.B) {
	nous := coldBinary(b)
	repo := coldRepo(b)
	env := coldEnv(envNow + "=" + coldRepoNow)
	serve := coldCmd(nous, repo, env, "serve", "--addr", "127.0.0.1:0")
	serve.Stderr = nil
	s := listen(b, serve)
	code, warmOut := s.ask(b, coldQuestion, "text")
	if code != http.StatusOK {
		b.Fatalf("status %d: %s", code, warmOut)
	}
	process := coldCmd(nous, repo, env, "ask", coldQuestion)
	var out strings.Builder
	process.Stdout = &out
	coldCheck(b, process, process.Run())
	if out.String() != warmOut {
		b.Fatalf("the server and nous ask answer differently:\n%s\n---\n%s", warmOut, out.String())
	}
	host, plugins := serveRSS(b, s.cmd.Process.Pid)
	var warm, cold time.Duration
	b.ReportAllocs() // the instrument's own
	for b.Loop() {
		start := time.Now()
		if code, body := s.ask(b, coldQuestion, "text"); code != http.StatusOK {
			b.Fatalf("status %d: %s", code, body)
		}
		warm += time.Since(start)
		cold += timeCold(b, coldCmd(nous, repo, env, "ask", coldQuestion))
	}
	b.ReportMetric(msPerOp(warm, b.N), "serve-ms")
	b.ReportMetric(msPerOp(cold, b.N), "process-ms")
	b.ReportMetric(float64(cold)/float64(warm), "process/serve")
	if host > 0 {
		b.ReportMetric(float64(host)/1024, "idle-rss-serve-MiB")
		b.ReportMetric(float64(plugins)/1024, "idle-rss-plugins-MiB")
	}
}
