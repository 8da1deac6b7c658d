package git

import (
	"fmt"
	"strings"
	"testing"
	"time"

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
			recs := fetch(t, s, sdk.FetchRequest{Since: tt.since, Until: tt.until, Filters: filters})
			got := make([]string, len(recs))
			for i, r := range recs {
				got[i] = r.Fields["sha"].(string)
			}
			assert.Equal(t, want, got)
		})
	}
}
