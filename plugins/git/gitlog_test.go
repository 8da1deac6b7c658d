package git

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMatchesGitLog checks the walk against git itself: the same commits,
// in the same order, for every filter the source pushes down and their
// combinations, on histories with merges and tags.
func TestMatchesGitLog(t *testing.T) {
	end := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
	repos := map[string]string{"shop": shopRepo(t), "large": largeRepo(t, 400, end)}
	f := func(kv ...string) map[string][]string {
		out := map[string][]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = append(out[kv[i]], kv[i+1])
		}
		return out
	}
	tests := []struct {
		repo         string
		filters      map[string][]string
		since, until time.Time
	}{
		{repo: "shop"},
		{repo: "shop", filters: f("paths", "api")},
		{repo: "shop", filters: f("paths", "web")},
		{repo: "shop", filters: f("paths", "web", "paths", "docs")},
		{repo: "shop", filters: f("paths", "README.md"), since: day(1, 2)},
		{repo: "shop", filters: f("revisions", "v1.0..main")},
		{repo: "shop", filters: f("revisions", "v1.0..")},
		{repo: "shop", filters: f("revisions", "feature")},
		{repo: "shop", filters: f("revisions", "feature..main")},
		{repo: "shop", filters: f("revisions", "v1.0..", "paths", "web")},
		{repo: "shop", filters: f("authors", "alice liddell <alice@")},
		{repo: "shop", filters: f("topics", "MERGE")},
		{repo: "large"},
		{repo: "large", since: end.Add(-100 * time.Hour)},
		{repo: "large", since: end.Add(-300 * time.Hour), until: end.Add(-100 * time.Hour)},
		{repo: "large", filters: f("paths", "payments")},
		{repo: "large", filters: f("paths", "payments/ledger/file3.txt")},
		{repo: "large", filters: f("paths", "api/handlers", "paths", "docs")},
		{repo: "large", filters: f("paths", "web"), since: end.Add(-200 * time.Hour)},
		{repo: "large", filters: f("authors", "carol")},
		{repo: "large", filters: f("authors", "BROWN <DAN")},
		{repo: "large", filters: f("authors", "carol", "authors", "dan@")},
		{repo: "large", filters: f("paths", "infra", "authors", "example.com")},
		{repo: "large", filters: f("paths", "web", "paths", "payments", "authors", "alice"), since: end.Add(-250 * time.Hour), until: end.Add(-20 * time.Hour)},
		{repo: "large", filters: f("revisions", "v0.2.0..v0.3.0")},
		{repo: "large", filters: f("revisions", "light-2..light-3")},
		{repo: "large", filters: f("revisions", "v0.3.0..")},
		{repo: "large", filters: f("revisions", "v0.1.0")},
		{repo: "large", filters: f("revisions", "feature-100..feature-200")},
		{repo: "large", filters: f("revisions", "main~120..main~40")},
		{repo: "large", filters: f("revisions", "v0.1.0..v0.3.0", "paths", "payments")},
		{repo: "large", filters: f("revisions", "v0.2.0..", "paths", "docs", "authors", "bob"), since: end.Add(-300 * time.Hour)},
		{repo: "large", filters: f("topics", "step 1")},
		{repo: "large", filters: f("topics", "MERGE branch", "topics", "change 39")},
		{repo: "large", filters: f("topics", "touches"), since: end.Add(-50 * time.Hour), until: end.Add(-10 * time.Hour)},
		{repo: "large", filters: f("topics", "STEP", "paths", "web/src")},
		{repo: "large", filters: f("topics", "feature", "authors", "carol", "revisions", "v0.1.0..v0.3.0")},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s %v since=%v until=%v", tt.repo, tt.filters, !tt.since.IsZero(), !tt.until.IsZero())
		t.Run(name, func(t *testing.T) {
			dir := repos[tt.repo]
			want := strings.Fields(runGit(t, dir, nil, gitLogArgs(tt.filters, tt.since, tt.until)...))
			require.NotEmpty(t, want, "the case must select something to compare")

			s := configured(t, `{"stats": false, "path": "`+dir+`"}`)
			recs := plugintest.Fetch(t, s, sdk.FetchRequest{Since: tt.since, Until: tt.until, Filters: tt.filters})
			assert.Equal(t, want, shas(recs))
		})
	}
}

// TestRevisionsUnion checks several revisions values: the union of what
// `git log` shows for each, newest first.
func TestRevisionsUnion(t *testing.T) {
	dir := largeRepo(t, 400, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC))
	s := configured(t, `{"stats": false, "path": "`+dir+`"}`)
	tests := [][]string{
		{"v0.1.0..v0.2.0", "v0.3.0..main"},
		{"v0.1.0..v0.3.0", "v0.2.0..main"}, // overlapping
		{"feature-50", "main~5..main"},
		{"v0.3.0..", "feature-300..feature-325"},
	}
	for _, revs := range tests {
		t.Run(strings.Join(revs, " "), func(t *testing.T) {
			want := map[string]bool{}
			for _, r := range revs {
				for _, sha := range strings.Fields(runGit(t, dir, nil, gitLogArgs(map[string][]string{"revisions": {r}}, time.Time{}, time.Time{})...)) {
					want[sha] = true
				}
			}
			recs := plugintest.Fetch(t, s, sdk.FetchRequest{Filters: map[string][]string{"revisions": revs}})
			got := map[string]bool{}
			for i, r := range recs {
				got[r.ID] = true
				if i > 0 {
					assert.False(t, r.Time.After(recs[i-1].Time), "newest first at %d", i)
				}
			}
			assert.Len(t, recs, len(got), "each commit once")
			assert.Equal(t, want, got)
		})
	}
}

// gitLogArgs is the `git log` command line equivalent to a fetch.
func gitLogArgs(filters map[string][]string, since, until time.Time) []string {
	args := []string{"log", "--format=%H"}
	if !since.IsZero() {
		args = append(args, fmt.Sprintf("--since=%d", since.Unix()))
	}
	if !until.IsZero() {
		// git's --until is inclusive; the source's Until is not.
		args = append(args, fmt.Sprintf("--until=%d", until.Unix()-1))
	}
	if len(filters["authors"])+len(filters["topics"]) > 0 {
		args = append(args, "-i", "--fixed-strings")
	}
	for _, a := range filters["authors"] {
		args = append(args, "--author="+a)
	}
	for _, g := range filters["topics"] {
		args = append(args, "--grep="+g)
	}
	args = append(args, filters["revisions"]...)
	args = append(args, "--")
	return append(args, filters["paths"]...)
}

func shas(recs []sdk.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
		if r.Fields["sha"] != r.ID {
			out[i] = "id and sha differ: " + r.ID
		}
	}
	return out
}

// TestStatsMatchGitNumstat checks files, additions and deletions of every
// non-merge commit against `git log --numstat`, computed by the git
// executable and by go-git (its fallback).
func TestStatsMatchGitNumstat(t *testing.T) {
	dir := largeRepo(t, 400, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC))
	want := numstatByCommit(t, runGit(t, dir, nil, "log", "--no-merges", "--numstat", "--format=%H"))
	require.Greater(t, len(want), 400)
	for _, engine := range statsEngines {
		t.Run(engine.name, func(t *testing.T) {
			s := configured(t, `{"path": "`+dir+`"}`)
			engine.set(t, s)
			checked := 0
			for _, r := range plugintest.Fetch(t, s, sdk.FetchRequest{}) {
				w, ok := want[r.ID]
				if !ok {
					assert.Greater(t, r.Fields["parents"], int64(1))
					assert.NotContains(t, r.Fields, "files", "a merge has no stats, as in git log --numstat")
					continue
				}
				checked++
				assert.Equal(t, w, [3]int64{r.Fields["files"].(int64), r.Fields["additions"].(int64), r.Fields["deletions"].(int64)}, "commit %s", r.ID)
			}
			assert.Equal(t, len(want), checked)
		})
	}
}

// statsEngines are the two ways stats are computed.
var statsEngines = []struct {
	name string
	set  func(testing.TB, *Source)
}{
	{"git executable", func(t testing.TB, s *Source) {
		if s.gitBin == "" {
			t.Skip("git is not installed")
		}
	}},
	{"go-git", func(_ testing.TB, s *Source) { s.gitBin = "" }},
	{"failing git falls back to go-git", func(t testing.TB, s *Source) {
		bin, err := exec.LookPath("false")
		if err != nil {
			t.Skip("no false executable")
		}
		s.gitBin = bin
	}},
}
