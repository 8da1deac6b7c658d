package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// logQuery is the git log that answers (part of) a question: the ground
// truth the suite compares nous's answer with. Dates are RFC 3339 or
// YYYY-MM-DD (midnight UTC); "" leaves that end open.
type logQuery struct {
	since, until string
	rev          string   // "A..B", "A.." or a single ref; "" is HEAD
	paths        []string // git log -- paths
	authors      []string // git log -i --fixed-strings --author=a (any of)
	topics       []string // git log -i --fixed-strings --grep=t (any of)

	count   bool // the report states this query's number of commits
	who     bool // the report names this query's authors, and no other author of the fixture
	nearest bool // an empty period: the report names the most recent matching commit before since
}

// logCommit is one commit git log printed.
type logCommit struct{ sha, author, subject string }

// args is the git log command line of q, printing one commit a line.
func (q logQuery) args(extra ...string) []string {
	args := []string{"log", "--format=%H%x00%an%x00%s"}
	args = append(args, extra...)
	if q.since != "" {
		args = append(args, "--since="+gitDate(q.since))
	}
	if q.until != "" {
		args = append(args, "--until="+gitDate(q.until))
	}
	if len(q.authors) > 0 || len(q.topics) > 0 {
		args = append(args, "-i", "--fixed-strings")
	}
	for _, a := range q.authors {
		args = append(args, "--author="+a)
	}
	for _, t := range q.topics {
		args = append(args, "--grep="+t)
	}
	rev := q.rev
	if strings.HasSuffix(rev, "..") {
		rev += "HEAD"
	}
	if rev == "" {
		rev = "HEAD"
	}
	args = append(args, rev, "--")
	return append(args, q.paths...)
}

// gitLog runs q's git log in dir.
func gitLog(t *testing.T, dir string, q logQuery) []logCommit {
	t.Helper()
	return parseLog(fixtureGit(t, dir, nil, q.args()...))
}

// nearestBefore is the most recent commit matching q's other filters
// before q.since: what an honest empty-period answer names.
func nearestBefore(t *testing.T, dir string, q logQuery) (logCommit, bool) {
	t.Helper()
	before := q
	before.until, before.since = q.since, ""
	got := parseLog(fixtureGit(t, dir, nil, before.args("-1")...))
	if len(got) == 0 {
		return logCommit{}, false
	}
	return got[0], true
}

func parseLog(out string) []logCommit {
	var commits []logCommit
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		f := strings.SplitN(line, "\x00", 3)
		if len(f) == 3 {
			commits = append(commits, logCommit{sha: f[0], author: f[1], subject: f[2]})
		}
	}
	return commits
}

// gitDate turns a query date into an exact instant git parses the same
// way everywhere ("now" is the suite's clock); a malformed date is passed
// through for git to reject.
func gitDate(s string) string {
	if s == "now" {
		s = fidelityNow
	}
	layout := time.RFC3339
	if len(s) == len(time.DateOnly) {
		layout = time.DateOnly
	}
	at, err := time.Parse(layout, s)
	if err != nil {
		return s // git rejects it, naming it
	}
	return at.UTC().Format("2006-01-02 15:04:05 -0700")
}

// allCommits is every commit of the repository (all refs), for resolving
// an answer's ids.
func allCommits(t *testing.T, dir string) []logCommit {
	t.Helper()
	return parseLog(fixtureGit(t, dir, nil, "log", "--all", "--format=%H%x00%an%x00%s"))
}

func TestFidelityLogQueryArgs(t *testing.T) {
	q := logQuery{since: "2025-01-01", until: "now", rev: "v1.17.0..", paths: []string{"hclwrite"}, authors: []string{"Martin"}, topics: []string{"packfile"}}
	require.Equal(t, []string{"log", "--format=%H%x00%an%x00%s", "--since=2025-01-01 00:00:00 +0000", "--until=2026-11-24 12:00:00 +0000",
		"-i", "--fixed-strings", "--author=Martin", "--grep=packfile", "v1.17.0..HEAD", "--", "hclwrite"}, q.args())
}
