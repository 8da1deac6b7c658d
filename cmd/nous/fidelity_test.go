package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The answer-fidelity suite (issue 8's "Done when"): realistic questions
// asked with `nous ask` in a fixture repository, each answer compared with
// the git log that answers the same question, run on the same repository
// in the same test. See "How answers are checked" in the README.

// fidelityCase is a question and what a faithful answer to it is.
type fidelityCase struct {
	q       string
	shallow bool       // ask in the shallow clone
	want    []logQuery // the git logs whose commits (union) are the answer's commit set; none: no commits
	status  string     // success | partial | failed | needs_clarification; exit 1 when failed, 3 when asked back, else 0
	mention []string   // case-insensitive patterns the report must match
	// known names a limitation nous has today: the row is skipped while it
	// fails, and fails once it passes, so the limitation is removed.
	known string
}

// Phrases an honest report uses; the patterns accept any wording that
// says the thing.
const (
	sayEmpty     = `no (matching )?commits`
	sayShallow   = `shallow|truncated`
	sayNoTracker = `not configured|no (issue )?tracker`
)

// The clock is Tuesday 2026-11-24 12:00 UTC; the fixture's last commit is
// on 2026-10-29 (see fidelity_fixture_test.go).
var fidelityCases = []fidelityCase{
	// Empty periods: nothing in them, say so, name the latest commit before.
	{q: "what changed last week?", want: []logQuery{{since: "2026-11-16", until: "2026-11-23", nearest: true}}, status: "partial", mention: []string{sayEmpty}},
	{q: "which commits were pushed in the past 2 weeks?", want: []logQuery{{since: "2026-11-10T12:00:00Z", until: "now", nearest: true}}, status: "partial", mention: []string{sayEmpty}},
	{q: "what changed since Monday?", want: []logQuery{{since: "2026-11-23", until: "now", nearest: true}}, status: "partial", mention: []string{sayEmpty}},
	{q: "what happened yesterday?", want: []logQuery{{since: "2026-11-23", until: "2026-11-24", nearest: true}}, status: "partial", mention: []string{sayEmpty}},
	{q: "what changed this month?", want: []logQuery{{since: "2026-11-01", until: "now", nearest: true}}, status: "partial", mention: []string{sayEmpty}},
	{q: "what happened in August 2025?", want: []logQuery{{since: "2025-08-01", until: "2025-09-01", nearest: true}}, status: "partial", mention: []string{sayEmpty}},
	{q: "what changed in hclwrite last week?", want: []logQuery{{since: "2026-11-16", until: "2026-11-23", paths: []string{"hclwrite"}, nearest: true}}, status: "partial", mention: []string{sayEmpty}},

	// Periods people name.
	{q: "what changed in the past 30 days?", want: []logQuery{{since: "2026-10-25T12:00:00Z", until: "now"}}, status: "success"},
	{q: "what changed last month?", want: []logQuery{{since: "2026-10-01", until: "2026-11-01"}}, status: "success"},
	{q: "what changed since 2024-01-01?", want: []logQuery{{since: "2024-01-01", until: "now"}}, status: "success"},
	{q: "list the commits in 2025", want: []logQuery{{since: "2025-01-01", until: "2026-01-01"}}, status: "success"},
	{q: "what happened in January 2025?", want: []logQuery{{since: "2025-01-01", until: "2025-02-01"}}, status: "success"},
	{q: "how many commits were made in Q1 2025?", want: []logQuery{{since: "2025-01-01", until: "2025-04-01", count: true}}, status: "success"},
	{q: "how many commits were made in the first half of 2025?", want: []logQuery{{since: "2025-01-01", until: "2025-07-01", count: true}}, status: "success"},
	{q: "what changed in the second half of 2024?", want: []logQuery{{since: "2024-07-01", until: "2025-01-01"}}, status: "success"},
	{q: "what changed this year?", want: []logQuery{{since: "2026-01-01", until: "now"}}, status: "success"},
	{q: "what changed last quarter?", want: []logQuery{{since: "2026-07-01", until: "2026-10-01"}}, status: "success"},
	{q: "what changed between 2025-03-01 and 2025-05-01?", want: []logQuery{{since: "2025-03-01", until: "2025-05-01"}}, status: "success"},
	{q: "commits from 2024-06-01..2024-09-01", want: []logQuery{{since: "2024-06-01", until: "2024-09-01"}}, status: "success"},
	{q: "what changed before 2024-01-01?", want: []logQuery{{until: "2024-01-01"}}, status: "success"},
	{q: "what changed since March 2026?", want: []logQuery{{since: "2026-03-01", until: "now"}}, status: "success"},

	// Releases (tags, annotated and lightweight) as ranges.
	{q: "what changed since the v1.17.0 release?", want: []logQuery{{rev: "v1.17.0.."}}, status: "success"},
	{q: "what's new since v1.17.0?", want: []logQuery{{rev: "v1.17.0.."}}, status: "success"},
	{q: "what changed between v1.0.0 and v1.1.0?", want: []logQuery{{rev: "v1.0.0..v1.1.0"}}, status: "success"},
	{q: "what changed between v1.9.0 and v1.10.0?", want: []logQuery{{rev: "v1.9.0..v1.10.0"}}, status: "success"}, // holds the merged pull request
	{q: "how many commits since v1.16.0?", want: []logQuery{{rev: "v1.16.0..", count: true}}, status: "success"},
	{q: "what changed since v1.18.1?", want: []logQuery{{rev: "v1.18.1.."}}, status: "success"}, // a lightweight tag
	{q: "what changed from v1.16.0 to v1.17.0?", want: []logQuery{{rev: "v1.16.0..v1.17.0"}}, status: "success"},
	{q: "what changed since v1.17?", want: []logQuery{{rev: "v1.17.0.."}}, status: "success"}, // no tag v1.17: its .0 release
	// A release's own changes: from the tag before it (git describe --tags REF^) to it.
	{q: "what changed in v1.10.0?", want: []logQuery{{rev: "v1.9.0..v1.10.0"}}, status: "success"},
	{q: "what changed in v1.9.0?", want: []logQuery{{rev: "v1.8.1..v1.9.0"}}, status: "success"}, // after a lightweight patch tag
	{q: "what went into release 1.17.0?", want: []logQuery{{rev: "v1.16.0..v1.17.0"}}, status: "success"},
	{q: "what changed in v1.0.0?", want: []logQuery{{rev: "v1.0.0"}}, status: "success"}, // the first tag: all of its history
	// The releases themselves come from GitHub or GitLab, which the fixture has not: partial.
	{q: "what changed in the last release?", want: []logQuery{{rev: "v1.18.0..v1.18.1"}}, status: "partial", mention: []string{`v1\.18\.0\.\.v1\.18\.1`}},

	// Paths.
	{q: "what changed in hclwrite in 2025?", want: []logQuery{{since: "2025-01-01", until: "2026-01-01", paths: []string{"hclwrite"}}}, status: "success"},
	{q: "which commits touched hclsyntax/?", want: []logQuery{{paths: []string{"hclsyntax"}}}, status: "success"},
	{q: "what changed in plumbing/format/packfile since v1.17.0?", want: []logQuery{{rev: "v1.17.0..", paths: []string{"plumbing/format/packfile"}}}, status: "success"},
	{q: "who changed README.md?", want: []logQuery{{paths: []string{"README.md"}, who: true}}, status: "success"},
	{q: "what changed in CHANGELOG.md this year?", want: []logQuery{{since: "2026-01-01", until: "now", paths: []string{"CHANGELOG.md"}}}, status: "success"},
	{q: "how many commits touched hclwrite in 2024?", want: []logQuery{{since: "2024-01-01", until: "2025-01-01", paths: []string{"hclwrite"}, count: true}}, status: "success"},

	// Authors: names, a shared first name, an e-mail, a bot.
	{q: "what did Radek Simko commit in 2025?", want: []logQuery{{since: "2025-01-01", until: "2026-01-01", authors: []string{"Radek Simko"}}}, status: "success"},
	{q: "who worked on plumbing/format/packfile?", want: []logQuery{{paths: []string{"plumbing/format/packfile"}, who: true}}, status: "success"},
	{q: "how many commits did Martin Atkins make?", want: []logQuery{{authors: []string{"Martin Atkins"}, count: true}}, status: "success"},
	// Two people are called Martin: nous asks which one, and runs nothing.
	{q: "what did Martin commit in 2024?", status: "needs_clarification", mention: []string{`1\. Martin \w+\n2\. Martin \w+`, "Atkins", "Hoefling"}},
	{q: "show the commits by pjbgf@linux.com", want: []logQuery{{authors: []string{"pjbgf@linux.com"}}}, status: "success"},
	{q: "what did Alisdair change in hclsyntax in 2024?", want: []logQuery{{since: "2024-01-01", until: "2025-01-01", authors: []string{"Alisdair"}, paths: []string{"hclsyntax"}}}, status: "success"},
	{q: "which commits did dependabot make this year?", want: []logQuery{{since: "2026-01-01", until: "now", authors: []string{"dependabot"}}}, status: "success"},

	// Topics.
	{q: "commits about packfile", want: []logQuery{{topics: []string{"packfile"}}}, status: "success"},
	{q: "which commits mention heredoc?", want: []logQuery{{topics: []string{"heredoc"}}}, status: "success"},

	// Two intents: one section each, both answered.
	{q: "what changed in docs last month and how many commits were there?", want: []logQuery{{since: "2026-10-01", until: "2026-11-01", paths: []string{"docs"}, count: true}}, status: "success"},
	{q: "how many commits were made in Q1 2025 and who made them?", want: []logQuery{{since: "2025-01-01", until: "2025-04-01", count: true, who: true}}, status: "success"},
	{q: "what changed in hclwrite in 2025 and who worked on plumbing/format/packfile?", want: []logQuery{
		{since: "2025-01-01", until: "2026-01-01", paths: []string{"hclwrite"}},
		{paths: []string{"plumbing/format/packfile"}, who: true},
	}, status: "success", known: "constraints apply to the whole question, not per clause: both intents get both paths and 2025"},

	// A shallow clone (--depth 5): answered up to the boundary, the truncation said.
	{q: "what changed since 2024-01-01?", shallow: true, want: []logQuery{{since: "2024-01-01", until: "now"}}, status: "partial", mention: []string{sayShallow}},
	{q: "what changed in 2025?", shallow: true, want: []logQuery{{since: "2025-01-01", until: "2026-01-01"}}, status: "partial", mention: []string{sayShallow}},
	{q: "what changed in the past 30 days?", shallow: true, want: []logQuery{{since: "2026-10-25T12:00:00Z", until: "now"}}, status: "success"}, // inside the boundary: nothing lost

	// Issues with no tracker configured: say so, never the bundled examples.
	{q: "what are the open issues?", status: "failed", mention: []string{sayNoTracker}},
	{q: "how many bugs were reported last month?", status: "failed", mention: []string{sayNoTracker}},
	{q: "which issues were closed this year?", status: "failed", mention: []string{sayNoTracker}},
	{q: "list the critical bugs in PAY", status: "failed", mention: []string{sayNoTracker}},
}

// reportHead is how many lines of the report are its opening: what it
// must say about an empty period, a truncated history or a missing
// tracker is said there, not at the bottom.
const reportHead = 15

// fidelityFixture is the repository and its shallow clone, with their
// commits for resolving answers' ids.
type fidelityFixture struct {
	repo, shallow string
	all           map[string][]logCommit // by directory
}

func (f *fidelityFixture) dir(c fidelityCase) string {
	if c.shallow {
		return f.shallow
	}
	return f.repo
}

func TestFidelity(t *testing.T) {
	require.GreaterOrEqual(t, len(fidelityCases), 40)
	repo, shallow := buildFidelityFixture(t, t.TempDir())
	fx := &fidelityFixture{repo: repo, shallow: shallow, all: map[string][]logCommit{repo: allCommits(t, repo), shallow: allCommits(t, shallow)}}
	sum := &fidelitySummary{}
	t.Run("questions", func(t *testing.T) {
		for i, c := range fidelityCases {
			name := c.q
			if c.shallow {
				name = "shallow/" + name
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				symptoms := checkFidelity(t, fx, c)
				sum.add(i, name, symptoms)
				switch {
				case c.known != "" && len(symptoms) > 0:
					t.Skipf("known limitation: %s", c.known)
				case c.known != "":
					t.Errorf("answered faithfully now: remove its known limitation (%s)", c.known)
				}
			})
		}
	})
	t.Log("\n" + sum.String())
}

// fidelitySummary is the pass/fail table the suite logs at the end: what
// the planner's owner reads to see what still fails, and why.
type fidelitySummary struct {
	mu   sync.Mutex
	rows map[int]string
}

func (s *fidelitySummary) add(i int, name string, symptoms []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rows == nil {
		s.rows = map[int]string{}
	}
	row := "PASS  " + name
	if len(symptoms) > 0 {
		row = "FAIL  " + name + "\n        " + strings.Join(symptoms, "\n        ")
	}
	s.rows[i] = row
}

func (s *fidelitySummary) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	passed := 0
	for i := range len(fidelityCases) {
		row, ok := s.rows[i]
		if !ok {
			continue
		}
		if strings.HasPrefix(row, "PASS") {
			passed++
		}
		b.WriteString(row + "\n")
	}
	fmt.Fprintf(&b, "%d of %d questions answered faithfully\n", passed, len(s.rows))
	if path := os.Getenv("NOUS_FIDELITY_SUMMARY"); path != "" {
		_ = os.WriteFile(filepath.Clean(path), []byte(b.String()), 0o644)
	}
	return b.String()
}

func TestFidelityHelpers(t *testing.T) {
	assert.Equal(t, []int{6, 1, 12}, statedCounts("6 commits by 3 authors; 1 commit in docs; 12 Commits"))
	all := []logCommit{{sha: "8e1bc7d0aa"}, {sha: "8e1bc7d1bb"}, {sha: "5e81adc2cc"}}
	assert.Equal(t, "5e81adc2cc", resolveSHA("5e81adc2", all), "a unique prefix resolves")
	assert.Equal(t, "8e1bc7d", resolveSHA("8e1bc7d", all), "an ambiguous prefix stays as it is")
	assert.Equal(t, "5e81adc2cc", resolveSHA("5E81ADC2", all), "ids are hex, either case")
	assert.Equal(t, "5e81", resolveSHA("5e81", all), "too short to resolve")
	assert.True(t, exampleIssue.MatchString("see PAY-12"))
}
