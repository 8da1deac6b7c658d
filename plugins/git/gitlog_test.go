package git

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMatchesGitLog checks the walk against git itself: the same commits,
// in the same order, for since, until, path and author filters.
func TestMatchesGitLog(t *testing.T) {
	end := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
	repos := map[string]string{"shop": shopRepo(t), "large": largeRepo(t, 400, end)}
	tests := []struct {
		repo         string
		paths        []string
		since, until time.Time
		author       string
	}{
		{repo: "shop"},
		{repo: "shop", paths: []string{"api"}},
		{repo: "shop", paths: []string{"web"}},
		{repo: "shop", paths: []string{"web", "docs"}},
		{repo: "shop", paths: []string{"README.md"}, since: day(1, 2)},
		{repo: "large"},
		{repo: "large", since: end.Add(-100 * time.Hour)},
		{repo: "large", since: end.Add(-300 * time.Hour), until: end.Add(-100 * time.Hour)},
		{repo: "large", paths: []string{"payments"}},
		{repo: "large", paths: []string{"payments/ledger/file3.txt"}},
		{repo: "large", paths: []string{"api/handlers", "docs"}},
		{repo: "large", paths: []string{"web"}, since: end.Add(-200 * time.Hour)},
		{repo: "large", author: "carol"},
		{repo: "large", paths: []string{"infra"}, author: "example.com"},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s paths=%v since=%v until=%v author=%q", tt.repo, tt.paths, !tt.since.IsZero(), !tt.until.IsZero(), tt.author)
		t.Run(name, func(t *testing.T) {
			dir := repos[tt.repo]
			args := []string{"log", "--format=%H"}
			if !tt.since.IsZero() {
				args = append(args, fmt.Sprintf("--since=%d", tt.since.Unix()))
			}
			if !tt.until.IsZero() {
				// git's --until is inclusive; the source's Until is not.
				args = append(args, fmt.Sprintf("--until=%d", tt.until.Unix()-1))
			}
			if tt.author != "" {
				args = append(args, "-i", "--author="+tt.author)
			}
			args = append(args, "--")
			args = append(args, tt.paths...)
			want := strings.Fields(runGit(t, dir, nil, args...))
			require.NotEmpty(t, want, "the case must select something to compare")

			filters := map[string][]string{}
			if len(tt.paths) > 0 {
				filters["paths"] = tt.paths
			}
			if tt.author != "" {
				filters["authors"] = []string{tt.author}
			}
			s := configured(t, `{"stats": false, "path": "`+dir+`"}`)
			recs := plugintest.Fetch(t, s, sdk.FetchRequest{Since: tt.since, Until: tt.until, Filters: filters})
			got := make([]string, len(recs))
			for i, r := range recs {
				got[i] = r.Fields["sha"].(string)
			}
			assert.Equal(t, want, got)
		})
	}
}

// TestStatsMatchGitNumstat checks files, additions and deletions of every
// non-merge commit against `git log --numstat`.
func TestStatsMatchGitNumstat(t *testing.T) {
	dir := largeRepo(t, 400, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC))
	type stat struct{ files, additions, deletions int64 }
	want := map[string]stat{}
	var sha string
	for _, line := range strings.Split(runGit(t, dir, nil, "log", "--no-merges", "--numstat", "--format=%H"), "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) == 1 && len(fields[0]) == 40:
			sha = fields[0]
			want[sha] = stat{}
		case len(fields) == 3:
			var a, d int64
			_, err := fmt.Sscan(fields[0], &a)
			require.NoError(t, err)
			_, err = fmt.Sscan(fields[1], &d)
			require.NoError(t, err)
			s := want[sha]
			want[sha] = stat{s.files + 1, s.additions + a, s.deletions + d}
		}
	}
	require.Greater(t, len(want), 400)

	recs := plugintest.Fetch(t, configured(t, `{"path": "`+dir+`"}`), sdk.FetchRequest{})
	checked := 0
	for _, r := range recs {
		w, ok := want[r.Fields["sha"].(string)]
		if !ok {
			continue // a merge
		}
		checked++
		assert.Equal(t, w, stat{r.Fields["files"].(int64), r.Fields["additions"].(int64), r.Fields["deletions"].(int64)}, "commit %s", r.ID)
	}
	assert.Equal(t, len(want), checked)
}
