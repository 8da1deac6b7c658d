package git

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShallowClone answers up to a real shallow clone's boundary, as git
// log does there, and says where the history ends.
func TestShallowClone(t *testing.T) {
	end := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
	src := largeRepo(t, 400, end)
	for _, depth := range []int{1, 3, 27, 40} {
		t.Run(fmt.Sprintf("depth %d", depth), func(t *testing.T) {
			dir := t.TempDir()
			runGit(t, dir, nil, "clone", "-q", "--no-local", fmt.Sprintf("--depth=%d", depth), "file://"+src, ".")
			require.NotEmpty(t, strings.TrimSpace(runGit(t, dir, nil, "rev-parse", "--is-shallow-repository")))
			s := configured(t, pathConfig(dir))

			cases := []map[string][]string{nil, {"paths": {"web"}}, {"authors": {"alice"}}, {"topics": {"change"}}}
			for _, filters := range cases {
				want := strings.Fields(runGit(t, dir, nil, gitLogArgs(filters, time.Time{}, time.Time{})...))
				recs := plugintest.Fetch(t, s, sdk.FetchRequest{Filters: filters})
				assert.Equal(t, want, shas(recs), "filters %v", filters)
			}

			// Stats of every commit, the boundary's included, match git's.
			numstat := numstatByCommit(t, runGit(t, dir, nil, "log", "--numstat", "--format=%H"))
			for _, engine := range statsEngines {
				t.Run(engine.name, func(t *testing.T) {
					s := configured(t, pathConfig(dir))
					engine.set(t, s)
					for _, r := range plugintest.Fetch(t, s, sdk.FetchRequest{}) {
						if r.Fields["parents"].(int64) > 1 {
							continue
						}
						assert.Equal(t, numstat[r.ID], [3]int64{r.Fields["files"].(int64), r.Fields["additions"].(int64), r.Fields["deletions"].(int64)}, "commit %s", r.ID)
					}
				})
			}

			resp, err := s.Ground(context.Background(), sdk.GroundRequest{})
			require.NoError(t, err)
			shallowList := strings.Fields(readFile(t, dir+"/.git/shallow"))
			require.NotEmpty(t, shallowList)
			var newest string
			var newestTime int64
			for _, h := range shallowList {
				var ct int64
				_, err := fmt.Sscan(strings.TrimSpace(runGit(t, dir, nil, "show", "-s", "--format=%ct", h)), &ct)
				require.NoError(t, err)
				if ct > newestTime {
					newest, newestTime = h, ct
				}
			}
			// One claim: history is complete after the newest boundary,
			// whatever older commits other boundaries leave.
			vouched := time.Unix(newestTime, 0).UTC()
			assert.Equal(t, "shallow clone: complete only since its newest boundary, "+newest[:7]+" of "+vouched.Format("2006-01-02"), resp.Coverage.Truncated)
			assert.Equal(t, vouched, resp.Coverage.Earliest.UTC())
			if depth == 27 { // the newest feature branch is cut above the mainline
				times := strings.Fields(runGit(t, dir, nil, "log", "--format=%ct"))
				slices.Sort(times)
				var oldest int64
				_, err := fmt.Sscan(times[0], &oldest)
				require.NoError(t, err)
				require.Greater(t, len(shallowList), 1, "several boundaries")
				assert.Less(t, oldest, newestTime, "commits older than the newest boundary are present")
			}
		})
	}
}

// numstatByCommit sums `git log --numstat --format=%H` per commit: files,
// additions, deletions.
func numstatByCommit(t *testing.T, out string) map[string][3]int64 {
	t.Helper()
	stats := map[string][3]int64{}
	var sha string
	for _, line := range strings.Split(out, "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) == 1 && len(fields[0]) == 40:
			sha = fields[0]
			stats[sha] = [3]int64{}
		case len(fields) >= 3:
			var a, d int64
			fmt.Sscan(fields[0], &a)
			fmt.Sscan(fields[1], &d)
			s := stats[sha]
			stats[sha] = [3]int64{s[0] + 1, s[1] + a, s[2] + d}
		}
	}
	return stats
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}
