package main

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkServeAsk asks a question two ways in one run: through a `nous
// serve` whose plugins are warm, over loopback HTTP, and as a `nous ask`
// process; both print the same report. It reports the time of each, their
// ratio, the CPU time each takes (the server's with its plugin
// processes', from /proc on Linux: a figure other load on the machine
// disturbs less than the time) and the resident size of the idle server
// and of its plugin processes. The questions: the cold benchmark's, of its repository of
// 500 commits (the git source reads 220 of them), and one of the issue
// fixtures (the file source reads two).
func BenchmarkServeAsk(b *testing.B) {
	b.Run("commits", func(b *testing.B) {
		serveAsk(b, coldRepo(b), coldQuestion, coldEnv(envNow+"="+coldRepoNow))
	})
	b.Run("issues", func(b *testing.B) {
		rules := askRules(b, askRepo(b, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z"}), askIssues(b, askDefaultIssues...), "")
		serveAsk(b, rules, "how many open issues are there?", coldEnv(envNow+"="+askNow, "NOUS_TRUST_PROJECT_PLUGINS=", "YOUTRACK_TOKEN=", "GITLAB_TOKEN=", "OPENAI_API_KEY="), "--rules", rules)
	})
}

// serveAsk measures question asked in dir with env, with the global args.
func serveAsk(b *testing.B, dir, question string, env []string, args ...string) {
	nous := coldBinary(b)
	serve := coldCmd(nous, dir, env, append(args, "serve", "--addr", "127.0.0.1:0")...)
	serve.Stderr = nil
	s := listen(b, serve)
	code, warmOut := s.ask(b, question, "text")
	if code != http.StatusOK {
		b.Fatalf("status %d: %s", code, warmOut)
	}
	process := coldCmd(nous, dir, env, append(args, "ask", question)...)
	var out strings.Builder
	process.Stdout = &out
	_ = process.Run() // a partial answer exits 0, a failed one 1: the output is compared
	if out.String() != warmOut {
		b.Fatalf("the server and nous ask answer differently:\n%s\n---\n%s", warmOut, out.String())
	}
	host, plugins := serveRSS(b, s.cmd.Process.Pid)
	var warm, cold, coldCPU time.Duration
	warmCPU := treeCPU(b, s.cmd.Process.Pid)
	b.ReportAllocs() // the instrument's own
	for b.Loop() {
		start := time.Now()
		if code, body := s.ask(b, question, "text"); code != http.StatusOK {
			b.Fatalf("status %d: %s", code, body)
		}
		warm += time.Since(start)
		p := coldCmd(nous, dir, env, append(args, "ask", question)...)
		start = time.Now()
		_ = p.Run()
		cold += time.Since(start)
		coldCPU += p.ProcessState.UserTime() + p.ProcessState.SystemTime()
	}
	warmCPU = treeCPU(b, s.cmd.Process.Pid) - warmCPU
	b.ReportMetric(msPerOp(warm, b.N), "serve-ms")
	b.ReportMetric(msPerOp(cold, b.N), "process-ms")
	b.ReportMetric(float64(cold)/float64(warm), "process/serve")
	if warmCPU > 0 {
		b.ReportMetric(msPerOp(warmCPU, b.N), "serve-cpu-ms")
		b.ReportMetric(msPerOp(coldCPU, b.N), "process-cpu-ms")
		b.ReportMetric(float64(coldCPU)/float64(warmCPU), "process/serve-cpu")
	}
	if host > 0 {
		b.ReportMetric(float64(host)/1024, "idle-rss-serve-MiB")
		b.ReportMetric(float64(plugins)/1024, "idle-rss-plugins-MiB")
	}
}

// treeCPU is the CPU time the process pid and its plugin processes have
// used so far (Linux; 0 elsewhere).
func treeCPU(b *testing.B, pid int) time.Duration {
	if runtime.GOOS != "linux" {
		return 0
	}
	total := procCPU(pid)
	for _, child := range children(b, pid, "plugin serve") {
		total += procCPU(child)
	}
	return total
}

// procCPU is the user and system time of process pid, from /proc/pid/stat
// (in ticks of USER_HZ, 100 a second); 0 when it cannot be read.
func procCPU(pid int) time.Duration {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// pid (comm) state …: comm may hold spaces, so fields count from ')';
	// utime and stime are the 14th and 15th fields.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
