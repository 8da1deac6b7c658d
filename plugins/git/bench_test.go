package git

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/require"
)

// The benchmarks compare the source with `git log` on one generated
// repository: 5,000 mainline commits plus a merged 3-commit feature branch
// every 25, ~5,800 commits in all, files in eight directories.
const benchCommits = 5000

var benchEnd = time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)

// benchSince selects roughly the newest 200 commits (one per hour).
var benchSince = benchEnd.Add(-200 * time.Hour)

// benchRange spans 2,000 mainline commits and their merged branches.
const benchRange = "v0.20.0..v0.40.0"

// benchPath is touched by about an eighth of the commits.
const benchPath = "payments/ledger"

func benchRepo(b *testing.B) string {
	b.Helper()
	return largeRepo(b, benchCommits, benchEnd)
}

func benchSource(b *testing.B, dir string, stats bool) *Source {
	b.Helper()
	return configured(b, fmt.Sprintf(`{"path": %q, "stats": %t}`, dir, stats))
}

// runFetch fetches req as a fresh plugin's first fetch does: with no
// stats, commits or tree entries cached (BenchmarkWarm and
// BenchmarkStatsCached measure the caches). The pack indexes' names stay
// read, as they always did.
func runFetch(b *testing.B, s *Source, req sdk.FetchRequest) int {
	s.stats, s.commits, s.entries = newStatsCache(), newCommitCache(), newEntryCache()
	n := 0
	err := s.Fetch(context.Background(), req, func(sdk.Record) error { n++; return nil })
	require.NoError(b, err)
	return n
}

func runGitLog(b *testing.B, dir string, args ...string) int {
	cmd := exec.Command("git", append([]string{"-C", dir, "log", "--format=%H"}, args...)...)
	cmd.Env = append(cmd.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.Output()
	require.NoError(b, err)
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		if len(line) == 40 {
			n++
		}
	}
	return n
}

// BenchmarkGitSince fetches the commits of the last 200 hours, with stats.
func BenchmarkGitSince(b *testing.B) { benchFetch(b, true, sdk.FetchRequest{Since: benchSince}) }

// BenchmarkGitSinceNoStats is BenchmarkGitSince without stats: the walk alone.
func BenchmarkGitSinceNoStats(b *testing.B) {
	benchFetch(b, false, sdk.FetchRequest{Since: benchSince})
}

// BenchmarkGitSinceNoStatsGitLog is BenchmarkGitSinceNoStats's `git log --since`.
func BenchmarkGitSinceNoStatsGitLog(b *testing.B) {
	benchGitLog(b, fmt.Sprintf("--since=%d", benchSince.Unix()))
}

// BenchmarkGitSinceGitLog is BenchmarkGitSince's `git log --numstat`.
func BenchmarkGitSinceGitLog(b *testing.B) {
	benchGitLog(b, fmt.Sprintf("--since=%d", benchSince.Unix()), "--numstat")
}

// BenchmarkGitRange fetches a tag range of about 2,300 commits, without
// stats: the walk that marks and holds commits against the excluded tag.
func BenchmarkGitRange(b *testing.B) {
	benchFetch(b, false, sdk.FetchRequest{Filters: map[string][]string{"revisions": {benchRange}}})
}

// BenchmarkGitRangeGitLog is BenchmarkGitRange's `git log A..B`.
func BenchmarkGitRangeGitLog(b *testing.B) { benchGitLog(b, benchRange) }

// BenchmarkGitPath fetches every commit touching one directory over the
// whole history, without stats.
func BenchmarkGitPath(b *testing.B) { benchFetch(b, false, benchPathRequest()) }

// BenchmarkGitPathGitLog is BenchmarkGitPath's `git log -- path`.
func BenchmarkGitPathGitLog(b *testing.B) { benchGitLog(b, "--", benchPath) }

// BenchmarkGitPathStats is BenchmarkGitPath with stats on each emitted commit.
func BenchmarkGitPathStats(b *testing.B) { benchFetch(b, true, benchPathRequest()) }

// BenchmarkGitPathStatsGitLog is BenchmarkGitPathStats's `git log --numstat -- path`.
func BenchmarkGitPathStatsGitLog(b *testing.B) { benchGitLog(b, "--numstat", "--", benchPath) }

func benchPathRequest() sdk.FetchRequest {
	return sdk.FetchRequest{Filters: map[string][]string{"path": {benchPath}}}
}

// benchFetch measures the source fetching req from the benchmark repository.
func benchFetch(b *testing.B, stats bool, req sdk.FetchRequest) {
	s := benchSource(b, benchRepo(b), stats)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = runFetch(b, s, req)
	}
	b.ReportMetric(float64(n), "commits/op")
}

// benchGitLog measures `git log ARGS` on the same repository.
func benchGitLog(b *testing.B, args ...string) {
	dir := benchRepo(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = runGitLog(b, dir, args...)
	}
	b.ReportMetric(float64(n), "commits/op")
}

// BenchmarkStatsVsNumstat fetches the whole history with diff statistics
// and runs `git log --numstat` over the same commits, in one run, so the
// ratio can be read off. NOUS_BENCH_REPO names a real repository to use
// instead of the generated one; NOUS_BENCH_SINCE (RFC 3339) bounds both.
func BenchmarkStatsVsNumstat(b *testing.B) {
	dir := os.Getenv("NOUS_BENCH_REPO")
	if dir == "" {
		dir = benchRepo(b)
	}
	var req sdk.FetchRequest
	var args []string
	if v := os.Getenv("NOUS_BENCH_SINCE"); v != "" {
		since, err := time.Parse(time.RFC3339, v)
		require.NoError(b, err)
		req.Since = since
		args = append(args, fmt.Sprintf("--since=%d", since.Unix()))
	}
	for _, engine := range statsEngines[:2] {
		b.Run("nous/"+engine.name, func(b *testing.B) {
			s := benchSource(b, dir, true)
			engine.set(b, s)
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n = runFetch(b, s, req)
			}
			b.ReportMetric(float64(n), "commits/op")
		})
	}
	b.Run("git-log-numstat", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			n = runGitLog(b, dir, append([]string{"--numstat"}, args...)...)
		}
		b.ReportMetric(float64(n), "commits/op")
	})
}

// BenchmarkGroundPathNames grounds bare names against a 100,000-entry tree:
// a top-level entry, a deep exact-case name, a top-level one in another
// case and a miss (each a scan of the listing).
func BenchmarkGroundPathNames(b *testing.B) {
	tr := &tree{}
	for i := range 100_000 {
		dir := fmt.Sprintf("pkg%d", i/1000)
		if i%1000 == 0 {
			tr.paths = append(tr.paths, treePath{path: dir, dir: true})
			continue
		}
		tr.paths = append(tr.paths, treePath{path: fmt.Sprintf("%s/sub%d/file%d.go", dir, i%10, i)})
	}
	names := []string{"pkg7", "file4242.go", "PKG7", "nosuch"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		var g sdk.GroundedTerm
		groundPath(&g, tr, names[i%len(names)])
	}
}

// BenchmarkFetchParallel fetches from one source on every core at once, as
// nous serve's concurrent runs do: "since" runs the newest 200 commits
// (no stats) in parallel; "fast-beside-slow" times the same fetch while
// another goroutine walks the whole history again and again (an author no
// commit matches), the wait a quick question had behind a slow one.
func BenchmarkFetchParallel(b *testing.B) {
	dir := benchRepo(b)
	fast := sdk.FetchRequest{Since: benchSince}
	slow := sdk.FetchRequest{Filters: map[string][]string{"author": {"nobody at all"}}}
	fetch := func(s *Source, req sdk.FetchRequest) (int, error) {
		n := 0
		err := s.Fetch(context.Background(), req, func(sdk.Record) error { n++; return nil })
		return n, err
	}
	b.Run("since", func(b *testing.B) {
		s := benchSource(b, dir, false)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if n, err := fetch(s, fast); err != nil || n == 0 {
					b.Errorf("fetch: %d commits, %v", n, err)
				}
			}
		})
	})
	b.Run("fast-beside-slow", func(b *testing.B) {
		s := benchSource(b, dir, false)
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := fetch(s, slow); err != nil {
					b.Errorf("slow fetch: %v", err)
					return
				}
			}
		}()
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if n, err := fetch(s, fast); err != nil || n == 0 {
					b.Errorf("fetch: %d commits, %v", n, err)
				}
			}
		})
		b.StopTimer() // the slow walk under way is not timed
		close(stop)
		<-done
	})
}
