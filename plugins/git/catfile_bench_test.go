package git

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/require"
)

// BenchmarkObjects fetches a week with objects read through git cat-file
// and through go-git: cold (open the repository, then fetch: go-git indexes
// the pack on its first read) and warm (the same source again), with and
// without stats, beside `git log` for the same commits. NOUS_BENCH_REPO
// names a real repository instead of the generated one, NOUS_BENCH_SINCE
// and NOUS_BENCH_UNTIL (RFC 3339) the week.
func BenchmarkObjects(b *testing.B) {
	dir := os.Getenv("NOUS_BENCH_REPO")
	if dir == "" {
		dir = benchRepo(b)
	}
	req := sdk.FetchRequest{Since: benchSince}
	for key, at := range map[string]*time.Time{"NOUS_BENCH_SINCE": &req.Since, "NOUS_BENCH_UNTIL": &req.Until} {
		if v := os.Getenv(key); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			require.NoError(b, err, key)
			*at = t
		}
	}
	logArgs := []string{fmt.Sprintf("--since=%d", req.Since.Unix())}
	if !req.Until.IsZero() {
		logArgs = append(logArgs, fmt.Sprintf("--until=%d", req.Until.Unix()-1))
	}
	for _, stats := range []bool{false, true} {
		for _, withGit := range []bool{true, false} {
			name := fmt.Sprintf("stats=%t/objects=", stats)
			if withGit {
				name += "cat-file"
			} else {
				name += "go-git"
			}
			b.Run(name+"/cold", func(b *testing.B) {
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					s := objectsSource(b, dir, stats, withGit)
					n = runFetch(b, s, req)
					closeRepo(s.first().repo)
				}
				b.ReportMetric(float64(n), "commits/op")
			})
			b.Run(name+"/warm", func(b *testing.B) {
				s := objectsSource(b, dir, stats, withGit)
				defer closeRepo(s.first().repo)
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					n = runFetch(b, s, req)
				}
				b.ReportMetric(float64(n), "commits/op")
			})
		}
		b.Run(fmt.Sprintf("stats=%t/git-log", stats), func(b *testing.B) {
			args := logArgs
			if stats {
				args = append([]string{"--numstat"}, args...)
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n = runGitLog(b, dir, args...)
			}
			b.ReportMetric(float64(n), "commits/op")
		})
	}
}

// objectsSource is a benchmark source reading objects through git
// cat-file or go-git.
func objectsSource(b *testing.B, dir string, stats, withGit bool) *Source {
	was := objectsWithGit
	objectsWithGit = withGit
	defer func() { objectsWithGit = was }()
	return benchSource(b, dir, stats)
}
