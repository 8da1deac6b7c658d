package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The fidelity fixture: a repository with about three years of history
// shaped like hashicorp/hcl's or go-git's (topic-prefixed subjects, a few
// regular authors and a bot, release tags, a merged pull request), built
// with the git CLI. Its dates keep clear of the boundaries the questions
// use, so every reasonable reading of "in 2025" or "last quarter" selects
// the same commits:
//   - every commit falls on local days 4..27 of its month, in zones within
//     ±7 h, so no commit is within a day of a month (quarter, year) start;
//   - August 2025 is quiet (no commits at all);
//   - the last commits are on 2026-10-27 and 2026-10-29, four weeks before
//     fidelityNow, so "last week", "this month", "since Monday" are empty
//     and "the past 30 days" (from 2026-10-25) holds exactly two commits.

// fidelityNow is the clock of the suite (NOUS_NOW): a Tuesday.
const fidelityNow = "2026-11-24T12:00:00Z"

// fidelityShallowDepth is the depth of the shallow clone (what CI checkouts are).
const fidelityShallowDepth = 5

type fixtureAuthor struct{ name, email string }

// The authors: two share the first name Martin; one is a bot.
var (
	martinAtkins   = fixtureAuthor{"Martin Atkins", "mart@degeneration.co.uk"}
	martinHoefling = fixtureAuthor{"Martin Hoefling", "mhoefling@users.noreply.github.com"}
	radekSimko     = fixtureAuthor{"Radek Simko", "radek.simko@gmail.com"}
	alisdair       = fixtureAuthor{"Alisdair McDiarmid", "alisdair@hashicorp.com"}
	pauloGomes     = fixtureAuthor{"Paulo Gomes", "pjbgf@linux.com"}
	dependabot     = fixtureAuthor{"dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com"}
)

var fixtureAuthors = []fixtureAuthor{martinAtkins, martinHoefling, radekSimko, alisdair, pauloGomes, dependabot}

// fixtureArea is a part of the tree, who usually changes it, and subjects
// for its commits. Some packfile-directory subjects do not say "packfile"
// and some other areas' subjects do, so path and topic questions differ.
type fixtureArea struct {
	file     string
	authors  []fixtureAuthor
	subjects []string
}

var fixtureAreas = []fixtureArea{
	{"hclwrite/format.go", []fixtureAuthor{martinAtkins, alisdair, radekSimko}, []string{
		"hclwrite: fix indentation of nested blocks",
		"hclwrite: preserve comments when removing an attribute",
		"hclwrite: add Body.SetAttributeTraversal",
		"hclwrite: format heredoc markers consistently",
		"hclwrite: no spaces before ellipsis in argument lists",
		"hclwrite: handle CRLF line endings in tokens",
		"hclwrite: allow removing a nested block by label",
	}},
	{"hclsyntax/parser.go", []fixtureAuthor{martinAtkins, alisdair}, []string{
		"hclsyntax: parse splat after an index expression",
		"hclsyntax: better error for an unterminated template",
		"hclsyntax: allow single-line comments at EOF without newline",
		"hclsyntax: correct scanning of literal $ and % before quotes",
		"hclsyntax: stub body when block parsing fails",
		"hclsyntax: heredoc with an indented closing marker",
	}},
	{"plumbing/format/packfile/scanner.go", []fixtureAuthor{martinHoefling, pauloGomes}, []string{
		"packfile: fix delta offset for large objects",
		"plumbing: format/packfile, reuse scanner buffers",
		"plumbing: fix delta base cache eviction",
		"packfile: validate the trailing checksum",
		"plumbing: handle OFS_DELTA at the end of a pack",
		"packfile: parser no longer reads the whole pack into memory",
	}},
	{"plumbing/format/index/decoder.go", []fixtureAuthor{pauloGomes, martinHoefling}, []string{
		"plumbing: format/index, support version 4 entries",
		"plumbing: index decoder skips unknown extensions",
		"plumbing: format/index, read the split index extension",
	}},
	{"docs/spec.md", []fixtureAuthor{radekSimko, alisdair}, []string{
		"docs: fix typos in the syntax spec",
		"docs: explain the hclwrite token model",
		"docs: describe the packfile layout used by the tests",
		"docs: document heredoc templates",
		"docs: add an example of dynamic blocks",
	}},
	{"README.md", []fixtureAuthor{radekSimko}, []string{
		"Update README.md",
		"README: new CI badge",
		"README: link the specification",
	}},
	{"go.mod", []fixtureAuthor{dependabot}, []string{
		"build(deps): bump golang.org/x/text from 0.14.0 to 0.15.0",
		"build(deps): bump github.com/zclconf/go-cty from 1.14.1 to 1.14.4",
		"build(deps): bump actions/setup-go from 4 to 5",
		"build(deps): bump golang.org/x/crypto from 0.38.0 to 0.45.0",
	}},
}

// fixtureGit runs git in dir with an isolated configuration.
func fixtureGit(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+dir,
		"GIT_AUTHOR_NAME=Radek Simko", "GIT_AUTHOR_EMAIL=radek.simko@gmail.com",
		"GIT_COMMITTER_NAME=Radek Simko", "GIT_COMMITTER_EMAIL=radek.simko@gmail.com")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		require.NoError(t, err, "git %v: %s", args, ee.Stderr)
	}
	require.NoError(t, err, "git %v", args)
	return string(out)
}

// fixtureRepo writes the history and returns the repository's directory.
type fixtureRepo struct {
	t     *testing.T
	dir   string
	rng   *rand.Rand
	count int // commits so far, numbering the pull requests
	zones []*time.Location
}

// buildFidelityFixture builds the repository under root and a shallow
// clone of it; it returns both directories.
func buildFidelityFixture(t *testing.T, root string) (repo, shallow string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &fixtureRepo{t: t, dir: filepath.Join(root, "hcl"), rng: rand.New(rand.NewPCG(8, 2026))}
	for _, off := range []int{-7, -4, 0, 1, 2, 5} {
		r.zones = append(r.zones, time.FixedZone(fmt.Sprintf("UTC%+d", off), off*3600))
	}
	require.NoError(t, os.MkdirAll(r.dir, 0o755))
	fixtureGit(t, r.dir, nil, "init", "-q", "-b", "main")
	r.history()
	shallow = filepath.Join(root, "hcl-shallow")
	fixtureGit(t, root, nil, "clone", "-q", "--no-local", fmt.Sprintf("--depth=%d", fidelityShallowDepth), "file://"+r.dir, shallow)
	return r.dir, shallow
}

// history writes the commits from 2023-09 to 2026-10: roughly weekly,
// a release tag (annotated, or lightweight for patch releases) after
// every sixth commit, a feature branch merged with a merge commit in
// April 2025, no commits in August 2025.
func (r *fixtureRepo) history() {
	r.commit(day(2023, 9, 12), radekSimko, "Initial commit", "README.md")
	r.commit(day(2023, 9, 14), martinAtkins, "hclsyntax: initial parser", "hclsyntax/parser.go")
	r.commit(day(2023, 9, 19), martinAtkins, "hclwrite: initial token writer", "hclwrite/format.go")
	r.commit(day(2023, 9, 21), martinHoefling, "plumbing: format/packfile, initial scanner", "plumbing/format/packfile/scanner.go")
	minor, sinceTag, merged := 0, 0, false
	d := day(2023, 10, 4)
	end := day(2026, 10, 15)
	for i := 0; d.Before(end); i++ {
		if !merged && !d.Before(day(2025, 4, 7)) {
			r.featureBranch()
			merged = true
			d = day(2025, 4, 24)
			continue
		}
		area := fixtureAreas[r.rng.IntN(len(fixtureAreas))]
		author := area.authors[r.rng.IntN(len(area.authors))]
		r.commit(d, author, area.subjects[r.rng.IntN(len(area.subjects))], area.file)
		sinceTag++
		if sinceTag == 6 {
			sinceTag = 0
			r.release(d.Add(26*time.Hour), fmt.Sprintf("v1.%d.0", minor), true)
			if minor%5 == 3 { // a patch release a day later, tagged lightweight
				r.release(d.Add(50*time.Hour), fmt.Sprintf("v1.%d.1", minor), false)
			}
			minor++
		}
		d = r.next(d)
	}
	r.commit(day(2026, 10, 27), pauloGomes, "packfile: fix delta offset", "plumbing/format/packfile/scanner.go")
	r.commit(day(2026, 10, 29), radekSimko, "docs: update the hclwrite guide for v1.19", "docs/spec.md")
}

// featureBranch is a pull request: three hclwrite commits on a branch,
// two commits on main meanwhile, then a --no-ff merge.
func (r *fixtureRepo) featureBranch() {
	fixtureGit(r.t, r.dir, nil, "checkout", "-q", "-b", "hclwrite-tokens")
	r.commit(day(2025, 4, 8), martinAtkins, "hclwrite: TokensForTuple and TokensForObject", "hclwrite/tokens.go")
	r.commit(day(2025, 4, 10), martinAtkins, "hclwrite: TokensForFunctionCall", "hclwrite/tokens.go")
	r.commit(day(2025, 4, 14), martinAtkins, "hclwrite: test the token generators against hclsyntax", "hclwrite/tokens_test.go")
	fixtureGit(r.t, r.dir, nil, "checkout", "-q", "main")
	r.commit(day(2025, 4, 9), pauloGomes, "plumbing: format/index, read the untracked cache", "plumbing/format/index/decoder.go")
	r.commit(day(2025, 4, 16), alisdair, "docs: hclsyntax operator precedence table", "docs/spec.md")
	when := day(2025, 4, 22)
	r.count++
	fixtureGit(r.t, r.dir, r.env(when, radekSimko), "merge", "-q", "--no-ff", "-m",
		"Merge pull request #612 from apparentlymart/hclwrite-tokens\n\nhclwrite: functions to generate tokens for values", "hclwrite-tokens")
	fixtureGit(r.t, r.dir, nil, "branch", "-q", "-d", "hclwrite-tokens")
}

// next is the day after d that a commit falls on: 3 to 13 days later,
// on a local day from the 4th to the 27th, never in August 2025.
func (r *fixtureRepo) next(d time.Time) time.Time {
	d = d.AddDate(0, 0, 3+r.rng.IntN(11))
	for d.Day() < 4 || d.Day() > 27 || (d.Year() == 2025 && d.Month() == time.August) {
		d = d.AddDate(0, 0, 1)
	}
	zone := r.zones[r.rng.IntN(len(r.zones))]
	return time.Date(d.Year(), d.Month(), d.Day(), 9+r.rng.IntN(9), r.rng.IntN(60), r.rng.IntN(60), 0, zone)
}

func day(y int, m time.Month, d int) time.Time {
	return time.Date(y, m, d, 10, 30, 0, 0, time.FixedZone("UTC+1", 3600))
}

// commit changes file (a new line, or a new file) and commits it as author at when.
func (r *fixtureRepo) commit(when time.Time, author fixtureAuthor, subject, file string) {
	r.count++
	p := filepath.Join(r.dir, file)
	require.NoError(r.t, os.MkdirAll(filepath.Dir(p), 0o755))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	require.NoError(r.t, err)
	_, err = fmt.Fprintf(f, "// %d: %s\n", r.count, subject)
	require.NoError(r.t, err)
	require.NoError(r.t, f.Close())
	fixtureGit(r.t, r.dir, nil, "add", "--", file)
	msg := subject
	if strings.HasPrefix(subject, "build(deps)") {
		msg += "\n\nSigned-off-by: dependabot[bot] <support@github.com>"
	}
	fixtureGit(r.t, r.dir, r.env(when, author), "commit", "-q", "--no-gpg-sign", "-m", msg)
}

// release commits the changelog and tags it: annotated (with a tagger
// date) or lightweight.
func (r *fixtureRepo) release(when time.Time, version string, annotated bool) {
	r.commit(when, radekSimko, "Update CHANGELOG.md for "+version, "CHANGELOG.md")
	if annotated {
		fixtureGit(r.t, r.dir, r.env(when, radekSimko), "tag", "-a", "-m", version, version)
		return
	}
	fixtureGit(r.t, r.dir, nil, "tag", version)
}

func (r *fixtureRepo) env(when time.Time, a fixtureAuthor) []string {
	date := when.Format(time.RFC3339)
	return []string{"GIT_AUTHOR_NAME=" + a.name, "GIT_AUTHOR_EMAIL=" + a.email, "GIT_AUTHOR_DATE=" + date,
		"GIT_COMMITTER_NAME=" + a.name, "GIT_COMMITTER_EMAIL=" + a.email, "GIT_COMMITTER_DATE=" + date}
}
