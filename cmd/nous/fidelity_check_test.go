package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/runner"
)

// fidelityCheck compares one answer with git log's, collecting each
// difference as a test error and as a symptom for the summary.
type fidelityCheck struct {
	t        *testing.T
	fx       *fidelityFixture
	c        fidelityCase
	dir      string
	ans      *fidelityAnswer
	symptoms []string
}

func (k *fidelityCheck) fail(format string, args ...any) {
	k.t.Helper()
	msg := fmt.Sprintf(format, args...)
	k.symptoms = append(k.symptoms, msg)
	if k.c.known != "" {
		k.t.Log(msg) // a known limitation: TestFidelity skips it while it fails
		return
	}
	k.t.Error(msg)
}

// checkFidelity asks c.q and returns each way the answer differs from
// git log's.
func checkFidelity(t *testing.T, fx *fidelityFixture, c fidelityCase) []string {
	k := &fidelityCheck{t: t, fx: fx, c: c, dir: fx.dir(c)}
	ans, err := askIn(context.Background(), k.dir, c.q)
	if err != nil {
		k.fail("%v", err)
		return k.symptoms
	}
	k.ans = ans
	k.outcome()
	k.commits()
	k.report()
	if len(k.symptoms) > 0 {
		t.Logf("exit %d, status %s, error %q, caveats %q\nstderr: %s\nreport:\n%s", ans.exit, ans.Result.Status,
			ans.Result.Error, ans.Result.Caveats, ans.stderr, firstLines(ans.Result.Report, 25))
	}
	return k.symptoms
}

// outcome: the status, the exit code (1 exactly when failed), and a
// caveat for every run that is not a plain success.
func (k *fidelityCheck) outcome() {
	wantExit := map[string]int{"failed": exitFindings, runner.ResultNeedsClarification: exitClarify}[k.c.status]
	if k.ans.exit != wantExit {
		k.fail("exit %d, want %d", k.ans.exit, wantExit)
	}
	if k.ans.Result.Status != k.c.status {
		k.fail("status %q, want %q", k.ans.Result.Status, k.c.status)
	}
	if k.c.status != "success" && k.c.status != runner.ResultNeedsClarification && len(k.ans.Result.Caveats) == 0 {
		k.fail("a %s run with no caveat saying why", k.ans.Result.Status)
	}
}

// commits: per query, the stated count, the nearest commit before an
// empty period, the authors and the listing; then the answer's commit
// records against the union of the queries' git logs.
func (k *fidelityCheck) commits() {
	report, head := k.ans.Result.Report, k.head()
	all := k.fx.all[k.dir]
	want, allowed, emptyPeriod := map[string]bool{}, map[string]bool{}, false
	for _, q := range k.c.want {
		commits := gitLog(k.t, k.dir, q)
		for _, cm := range commits {
			want[cm.sha] = true
		}
		if q.count && !slices.Contains(statedCounts(report), len(commits)) {
			k.fail("the report does not state the count %d (git %s); it states %v", len(commits), strings.Join(q.args(), " "), statedCounts(report))
		}
		if q.nearest {
			emptyPeriod = true
			if len(commits) != 0 {
				k.fail("fixture: the period of %q is not empty", k.c.q)
			}
			if near, ok := nearestBefore(k.t, k.dir, q); ok {
				allowed[near.sha] = true
				if !strings.Contains(head, near.sha[:7]) {
					k.fail("neither the caveats nor the report's first %d lines name the most recent commit before the period, %s %q", reportHead, near.sha[:7], near.subject)
				}
			}
		}
		if q.who {
			k.authors(commits)
		}
		if !q.count && len(commits) > 0 && len(commits) <= 12 {
			for _, cm := range commits {
				if !strings.Contains(report, cm.sha[:7]) {
					k.fail("the report does not list %s %q", cm.sha[:7], cm.subject)
				}
			}
		}
	}
	got, outside := k.ans.commitIDs(all)
	if len(outside) > 0 && !emptyPeriod {
		k.fail("%d record(s) marked as outside the asked period %s, but the period is not empty", len(outside), shortList(outside, all))
	}
	var missing, extra []string
	seen := map[string]bool{}
	for _, id := range got {
		seen[id] = true
		if !want[id] && !allowed[id] {
			extra = append(extra, id)
		}
	}
	for sha := range want {
		if !seen[sha] {
			missing = append(missing, sha)
		}
	}
	if len(missing) > 0 || len(extra) > 0 {
		k.fail("commit set: %d record(s), git log has %d: %d missing %s, %d extra %s", len(got), len(want),
			len(missing), shortList(missing, all), len(extra), shortList(extra, all))
	}
}

// authors: the report names every author of commits, and no fixture
// author who has no commit in any of the question's answers.
func (k *fidelityCheck) authors(commits []logCommit) {
	report := k.ans.Result.Report
	named := map[string]bool{}
	for _, q := range k.c.want {
		for _, cm := range gitLog(k.t, k.dir, q) {
			named[cm.author] = true
		}
	}
	missing := map[string]bool{}
	for _, cm := range commits {
		if !missing[cm.author] && !strings.Contains(report, cm.author) {
			missing[cm.author] = true
			k.fail("the report does not name the author %s", cm.author)
		}
	}
	for _, a := range fixtureAuthors {
		if !named[a.name] && strings.Contains(report, a.name) {
			k.fail("the report names %s, who has no commit in the answer", a.name)
		}
	}
}

// head is what a reader is to see first: the run's caveats (its own
// sentences on what the answer is not) and the report's opening lines.
func (k *fidelityCheck) head() string {
	return strings.Join(k.ans.Result.Caveats, "\n") + "\n" + firstLines(k.ans.Result.Report, reportHead)
}

// report: only commits, what the row says in the opening lines, never
// the bundled example issues.
func (k *fidelityCheck) report() {
	report := k.ans.Result.Report
	for _, r := range k.ans.Result.Records {
		if r.Kind != "commit" {
			k.fail("a %s record %s (%s) in an answer about the repository", r.Kind, r.ID, r.Source)
			break
		}
	}
	head := k.head()
	for _, p := range k.c.mention {
		if !regexp.MustCompile(`(?i)` + p).MatchString(head) {
			k.fail("neither the caveats nor the report's first %d lines say /%s/", reportHead, p)
		}
	}
	if m := exampleIssue.FindString(report); m != "" {
		k.fail("the report shows %s from the bundled example data", m)
	}
}

func shortList(shas []string, all []logCommit) string {
	slices.Sort(shas)
	var b strings.Builder
	for i, s := range shas {
		if i == 5 {
			fmt.Fprintf(&b, " …")
			break
		}
		subject := ""
		for _, c := range all {
			if c.sha == s {
				subject = c.subject
			}
		}
		fmt.Fprintf(&b, " %.8s %q", s, subject)
	}
	return "[" + strings.TrimSpace(b.String()) + "]"
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}
