package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The cold benchmarks run the nous binary as a user does, one process per
// command, and measure issue 14's targets: the wall time of `nous ask`
// against `nous plan` and `git log --numstat`, and the peak resident memory
// of every nous process of the ask (the host and its plugin children). The
// memory is read in a second run of the ask, so that sampling /proc takes
// no CPU from the timed one.

// coldQuestion is what BenchmarkColdAsk plans and asks.
const coldQuestion = "what changed in this repository last week?"

// envBenchBin names a nous binary to measure instead of one built from
// this tree (e.g. a build of main, to compare).
const envBenchBin = "NOUS_BENCH_BIN"

// BenchmarkColdAsk runs `nous plan Q` and `nous ask Q` as processes on a
// fixture repository of 500 commits (220 of them last week).
func BenchmarkColdAsk(b *testing.B) {
	nous := coldBinary(b)
	repo := coldRepo(b)
	env := coldEnv(envNow + "=" + coldRepoNow)
	var plan, ask time.Duration
	var mem coldMemory
	b.ReportAllocs() // the instrument's own, not nous's
	for b.Loop() {
		plan += timeCold(b, coldCmd(nous, repo, env, "plan", coldQuestion))
		ask += timeCold(b, coldCmd(nous, repo, env, "ask", coldQuestion))
		mem.add(watchCold(b, coldCmd(nous, repo, env, "ask", coldQuestion), nous))
	}
	b.ReportMetric(msPerOp(plan, b.N), "plan-ms")
	b.ReportMetric(msPerOp(ask, b.N), "ask-ms")
	b.ReportMetric(float64(ask)/float64(plan), "ask/plan")
	mem.report(b)
}

// BenchmarkColdAskLargeRepo runs `nous ask Q` and the equivalent
// `git log --since=SINCE --until=UNTIL --numstat` as processes in the
// repository $NOUS_BENCH_REPO, about the days from $NOUS_BENCH_SINCE to
// the day before $NOUS_BENCH_UNTIL (YYYY-MM-DD).
func BenchmarkColdAskLargeRepo(b *testing.B) {
	repo := os.Getenv("NOUS_BENCH_REPO")
	if repo == "" {
		b.Skip("set NOUS_BENCH_REPO=DIR (a large git clone), NOUS_BENCH_SINCE=YYYY-MM-DD and NOUS_BENCH_UNTIL=YYYY-MM-DD (exclusive); NOUS_BENCH_QUESTION defaults to 'what changed from SINCE to UNTIL-1?'")
	}
	since, err := time.Parse(time.DateOnly, os.Getenv("NOUS_BENCH_SINCE"))
	if err != nil {
		b.Fatalf("$NOUS_BENCH_SINCE: want a date YYYY-MM-DD: %v", err)
	}
	until, err := time.Parse(time.DateOnly, os.Getenv("NOUS_BENCH_UNTIL"))
	if err != nil || !until.After(since) {
		b.Fatalf("$NOUS_BENCH_UNTIL: want a date YYYY-MM-DD after $NOUS_BENCH_SINCE (exclusive): %q", os.Getenv("NOUS_BENCH_UNTIL"))
	}
	question := os.Getenv("NOUS_BENCH_QUESTION")
	if question == "" {
		question = fmt.Sprintf("what changed from %s to %s?", since.Format(time.DateOnly), until.AddDate(0, 0, -1).Format(time.DateOnly))
	}
	nous := coldBinary(b)
	env := coldEnv()
	gitArgs := []string{"log", "--since=" + since.Format("2006-01-02T15:04"), "--until=" + until.Format("2006-01-02T15:04"), "--numstat"}
	b.Logf("in %s: nous ask %q vs git %s", repo, question, strings.Join(gitArgs, " "))
	var ask, gitLog time.Duration
	var mem coldMemory
	b.ReportAllocs() // the instrument's own, not nous's
	for b.Loop() {
		gitLog += timeCold(b, coldCmd("git", repo, env, gitArgs...))
		ask += timeCold(b, coldCmd(nous, repo, env, "ask", question))
		mem.add(watchCold(b, coldCmd(nous, repo, env, "ask", question), nous))
	}
	b.ReportMetric(msPerOp(ask, b.N), "ask-ms")
	b.ReportMetric(msPerOp(gitLog, b.N), "gitlog-ms")
	b.ReportMetric(float64(ask)/float64(gitLog), "ask/gitlog")
	mem.report(b)
}

// coldBinary returns the absolute path of the nous binary to measure:
// $NOUS_BENCH_BIN, else one built from this tree.
func coldBinary(b *testing.B) string {
	b.Helper()
	bin := os.Getenv(envBenchBin)
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "nous")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
	abs, err := filepath.Abs(bin)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		b.Fatalf("$%s: %v", envBenchBin, err)
	}
	return abs
}

// coldEnv is this process's environment without the test binary's
// pretend-to-be-nous switch, plus extra.
func coldEnv(extra ...string) []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, envAsNous+"=") })
	return append(env, extra...)
}

// coldCmd is the command `name args…` in dir with env; its stdout is
// discarded and its stderr kept for the failure message.
func coldCmd(name, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env, cmd.Stderr = dir, env, &bytes.Buffer{}
	return cmd
}

// timeCold runs cmd and returns its wall time; a failure ends the benchmark.
func timeCold(b *testing.B, cmd *exec.Cmd) time.Duration {
	b.Helper()
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	coldCheck(b, cmd, err)
	return wall
}

// watchCold runs cmd, reading the memory of the processes running the
// binary exe; a failure ends the benchmark.
func watchCold(b *testing.B, cmd *exec.Cmd, exe string) procRun {
	b.Helper()
	run, err := runWatched(cmd, exe)
	coldCheck(b, cmd, err)
	return run
}

// coldCheck ends the benchmark with the command's stderr if it failed.
func coldCheck(b *testing.B, cmd *exec.Cmd, err error) {
	b.Helper()
	if err != nil {
		b.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, cmd.Stderr)
	}
}

// coldMemory adds up the memory of several runs.
type coldMemory struct {
	first procRun
	runs  int
	procs int
	sum   int64            // kB, the peaks of every process added
	pss   int64            // kB
	roles map[string]int64 // kB, the largest peak of a process of the role, added over runs
}

func (m *coldMemory) add(run procRun) {
	if m.roles == nil {
		m.roles = map[string]int64{}
	}
	if m.runs == 0 {
		m.first = run
	}
	m.runs++
	m.procs += len(run.Peaks)
	m.pss += run.Pss
	largest := map[string]int64{}
	for _, p := range run.Peaks {
		m.sum += p.HWM
		largest[p.Role] = max(largest[p.Role], p.HWM)
	}
	for role, kb := range largest {
		m.roles[role] += kb
	}
}

// report reports the means per run: the sum of peak RSS, the largest peak
// RSS per role, the sum of Pss at its peak, the count of nous processes.
func (m *coldMemory) report(b *testing.B) {
	if m.procs == 0 {
		b.Log("no memory figures:", memoryUnavailable())
		return
	}
	runs := float64(m.runs)
	mib := func(kb int64) float64 { return float64(kb) / 1024 / runs }
	b.ReportMetric(mib(m.sum), "rss-sum-MiB")
	b.ReportMetric(mib(m.pss), "pss-sum-MiB")
	b.ReportMetric(float64(m.procs)/runs, "procs")
	for role, kb := range m.roles {
		b.ReportMetric(mib(kb), "rss-"+role+"-MiB")
	}
	b.Logf("peak RSS of the first run's processes: %s", m.first)
}

func msPerOp(d time.Duration, n int) float64 {
	return float64(d) / float64(time.Millisecond) / float64(n)
}
