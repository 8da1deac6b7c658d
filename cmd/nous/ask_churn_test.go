package main

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// churnFiles are the files the churn fixture edits, in several directories.
var churnFiles = []string{"README.md", "cmd/app/main.go", "cmd/app/flags.go", "internal/core/engine.go",
	"internal/core/plan/plan.go", "internal/util/strings.go", "docs/guide.md"}

// churnRepo builds a repository whose commits from 2024-10 to 2025-12 add
// and delete varied numbers of lines in 1–3 files each, with a pure rename
// and a merge commit: the numbers the answers are checked against come
// from git log on it, not from this code.
func churnRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	fixtureGit(t, dir, nil, "init", "-q", "-b", "main")
	rng := rand.New(rand.NewPCG(7, 2025))
	files := slices.Clone(churnFiles)
	lines := map[string]int{}
	when := time.Date(2024, 10, 3, 12, 0, 0, 0, time.UTC)
	commit := func(subject string) {
		d := when.Format(time.RFC3339)
		fixtureGit(t, dir, []string{"GIT_AUTHOR_DATE=" + d, "GIT_COMMITTER_DATE=" + d}, "commit", "-q", "--no-gpg-sign", "-m", subject)
		when = when.Add(7 * 24 * time.Hour)
	}
	edit := func(file string) {
		p := filepath.Join(dir, file)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		keep := lines[file]
		if keep > 4 && rng.IntN(3) == 0 {
			keep /= 2 // delete the second half
		}
		n := keep + 1 + rng.IntN(40)
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "line %d of %s\n", i, file)
		}
		lines[file] = n
		require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
		fixtureGit(t, dir, nil, "add", "--", file)
	}
	for i := range 60 {
		for range 1 + rng.IntN(3) {
			edit(files[rng.IntN(len(files))])
		}
		commit(fmt.Sprintf("change %d", i))
		if i == 20 {
			fixtureGit(t, dir, nil, "mv", "docs/guide.md", "docs/manual.md")
			commit("rename the guide")
			lines["docs/manual.md"] = lines["docs/guide.md"]
			delete(lines, "docs/guide.md")
			files[len(files)-1] = "docs/manual.md"
		}
		if i == 40 {
			// A side branch merged back: the merge carries no statistics.
			fixtureGit(t, dir, nil, "checkout", "-q", "-b", "side")
			edit("internal/side/side.go")
			commit("side work")
			fixtureGit(t, dir, nil, "checkout", "-q", "main")
			edit("README.md")
			commit("main work")
			d := when.Format(time.RFC3339)
			fixtureGit(t, dir, []string{"GIT_AUTHOR_DATE=" + d, "GIT_COMMITTER_DATE=" + d}, "merge", "-q", "--no-ff", "--no-gpg-sign", "-m", "merge side", "side")
			when = when.Add(7 * 24 * time.Hour)
		}
	}
	return dir
}

// churnTruth is what git log says of a period: line totals, commits per
// file (git log --name-only) and per directory, and each commit's size.
type churnTruth struct {
	added, deleted int
	files, dirs    map[string]int
	sizes          map[string]int // short SHA → lines changed
}

func gitChurn(t *testing.T, dir, since, until string) churnTruth {
	t.Helper()
	out := fixtureGit(t, dir, nil, "log", "--since="+since, "--until="+until, "--numstat", "--format=@%h")
	tr := churnTruth{files: map[string]int{}, dirs: map[string]int{}, sizes: map[string]int{}}
	names := fixtureGit(t, dir, nil, "log", "--since="+since, "--until="+until, "--name-only", "--format=@%h")
	var sha string
	seen := map[string]bool{}
	for _, line := range strings.Split(names, "\n") {
		switch {
		case strings.HasPrefix(line, "@"):
			sha, seen = line[1:], map[string]bool{}
		case line != "":
			tr.files[line]++
			d := churnDir(line)
			if !seen[d] {
				seen[d] = true
				tr.dirs[d]++
			}
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "@") {
			sha = line[1:]
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		a, errA := strconv.Atoi(f[0])
		d, errD := strconv.Atoi(f[1])
		if errA != nil || errD != nil {
			continue // a binary file
		}
		tr.added += a
		tr.deleted += d
		tr.sizes[sha] += a + d
	}
	return tr
}

// churnDir is a path's directory as the answers count it: its first two
// directory components, "." for a top-level file.
func churnDir(p string) string {
	parts := strings.Split(p, "/")
	if len(parts) == 1 {
		return "."
	}
	parts = parts[:len(parts)-1]
	return strings.Join(parts[:min(len(parts), 2)], "/")
}

// rankedRE reads a ranking line of the report: "1. `path` — 7 commits".
var rankedRE = regexp.MustCompile("(?m)^\\d+\\. `([^`]+)` — (\\d+) commits?$")

// ranked reads the ranking under heading in report.
func ranked(t *testing.T, report, heading string) map[string]int {
	t.Helper()
	i := strings.Index(report, heading)
	require.GreaterOrEqual(t, i, 0, "no %q in:\n%s", heading, report)
	section := report[i:]
	if j := strings.Index(section, "\n#"); j > 0 {
		section = section[:j]
	}
	out := map[string]int{}
	for _, m := range rankedRE.FindAllStringSubmatch(section, -1) {
		out[m[1]], _ = strconv.Atoi(m[2])
	}
	require.NotEmpty(t, out, "no ranking under %q:\n%s", heading, section)
	return out
}

// checkRanking: every ranked path has git's count, the first the highest,
// and no path git counts more often is left out.
func checkRanking(t *testing.T, got, want map[string]int) {
	t.Helper()
	least := -1
	for p, n := range got {
		assert.Equal(t, want[p], n, "commits touching %s", p)
		if least < 0 || n < least {
			least = n
		}
	}
	for p, n := range want {
		if n > least {
			assert.Contains(t, got, p, "%s (%d commits) is missing from the ranking", p, n)
		}
	}
}

// The churn questions on a repository built here, answered against git
// log --numstat and --name-only on it; the step holds 5 records, so the
// numbers come from the engine's count of every record, not the listed ones.
func TestAskChurnMatchesGitLog(t *testing.T) {
	repo := churnRepo(t)
	loop := "loop {\n  max_passes = 5\n  ttl = \"120s\"\n  refine_per_step = 3\n  refine_total = 10\n  workers = 4\n  max_records = 5\n}\n"
	rules := askRules(t, repo, askIssues(t, askDefaultIssues...), loop)
	year := gitChurn(t, repo, "2025-01-01T00:00:00Z", "2026-01-01T00:00:00Z")
	require.Greater(t, year.added, 0)
	totals := regexp.MustCompile(`\+(\d+) -(\d+) lines in (\d+) commits`)

	tests := []struct {
		q, understood string
		check         func(t *testing.T, report string)
	}{
		{"how many lines were added in 2025?", "Lines added in", nil},
		{"which files changed the most in 2025?", "Files changed most in", func(t *testing.T, report string) {
			checkRanking(t, ranked(t, report, "Files changed most (by"), year.files)
		}},
		{"which directories changed most in 2025?", "Directories changed most in", func(t *testing.T, report string) {
			checkRanking(t, ranked(t, report, "Directories changed most (by"), year.dirs)
		}},
		{"what is the largest commit of 2025?", "Largest commits by lines changed in", func(t *testing.T, report string) {
			m := regexp.MustCompile("(?m)^1\\. `(\\w+)` .* — (\\d+) lines").FindStringSubmatch(report)
			require.NotNil(t, m, report)
			sizes := slices.Collect(maps.Values(year.sizes))
			assert.Equal(t, slices.Max(sizes), atoi(t, m[2]))
			assert.Equal(t, year.sizes[m[1][:7]], atoi(t, m[2]), "the size of %s", m[1])
		}},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			out, stderr, code := runAsk(t, "--rules", rules, "--format", "markdown", tt.q)
			require.Equal(t, 0, code, "stderr: %s\n%s", stderr, out)
			assert.Contains(t, out, tt.understood)
			assert.Contains(t, out, "2025-01-01 – 2025-12-31", "the year is the period, not a path")
			assert.NotContains(t, out, "could not be applied")
			m := totals.FindStringSubmatch(out)
			require.NotNil(t, m, out)
			assert.Equal(t, year.added, atoi(t, m[1]), "lines added")
			assert.Equal(t, year.deleted, atoi(t, m[2]), "lines deleted")
			assert.Contains(t, out, "(the newest 5 are listed)", "the numbers are the whole set's, not the listed records'")
			if tt.check != nil {
				tt.check(t, out)
			}
		})
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}
