package git

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// stream builds a `git fast-import` stream: a quick way to make real
// repositories with fixed dates, branches and merges.
type stream struct {
	buf   bytes.Buffer
	marks int
}

// fileChange is one file written (or deleted, when content is nil) by a commit.
type fileChange struct {
	path    string
	content []byte
}

// commit appends a commit on branch and returns its mark. from and merge
// are marks (0 for none).
func (s *stream) commit(branch, author string, when time.Time, msg string, from int, merges []int, changes ...fileChange) int {
	s.marks++
	name, email, _ := strings.Cut(author, " <")
	ident := fmt.Sprintf("%s <%s %d +0000", name, email, when.Unix())
	fmt.Fprintf(&s.buf, "commit refs/heads/%s\nmark :%d\nauthor %s\ncommitter %s\ndata %d\n%s\n", branch, s.marks, ident, ident, len(msg), msg)
	if from > 0 {
		fmt.Fprintf(&s.buf, "from :%d\n", from)
	}
	for _, m := range merges {
		fmt.Fprintf(&s.buf, "merge :%d\n", m)
	}
	for _, c := range changes {
		if c.content == nil {
			fmt.Fprintf(&s.buf, "D %s\n", c.path)
			continue
		}
		fmt.Fprintf(&s.buf, "M 100644 inline %s\ndata %d\n%s\n", c.path, len(c.content), c.content)
	}
	s.buf.WriteString("\n")
	return s.marks
}

// tag appends an annotated tag on the commit mark.
func (s *stream) tag(name string, mark int, when time.Time) {
	msg := "release " + name
	fmt.Fprintf(&s.buf, "tag %s\nfrom :%d\ntagger Release Bot <release@example.com> %d +0000\ndata %d\n%s\n", name, mark, when.Unix(), len(msg), msg)
}

// lightTag appends a lightweight tag on the commit mark.
func (s *stream) lightTag(name string, mark int) {
	fmt.Fprintf(&s.buf, "reset refs/tags/%s\nfrom :%d\n\n", name, mark)
}

// importRepo makes dir a repository holding s, with main checked out as HEAD.
func importRepo(tb testing.TB, dir string, s *stream) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not installed")
	}
	runGit(tb, dir, nil, "init", "-q", "-b", "main")
	runGit(tb, dir, s.buf.Bytes(), "fast-import", "--quiet")
}

// runGit runs git in dir with a fixed environment and returns its stdout.
func runGit(tb testing.TB, dir string, stdin []byte, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "TZ=UTC")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(tb, cmd.Run(), "git %v: %s", args, stderr.String())
	return stdout.String()
}

// file is a change writing content to path.
func file(path, content string) fileChange { return fileChange{path: path, content: []byte(content)} }

// day is midnight UTC of a day in 2024.
func day(month time.Month, d int) time.Time { return time.Date(2024, month, d, 0, 0, 0, 0, time.UTC) }

// shopRepo is a small history with a feature branch merged into main and
// an annotated tag; each commit's subject names it.
//
//	c1 Jan 1  alice  README.md, api/server.go
//	c2 Jan 5  bob    api/server.go
//	c3 Jan 6  carol  web/app.js            (branch feature, from c2)
//	c4 Jan 7  alice  docs/guide.md         (main, tag v1.0)
//	c5 Jan 8  alice  merge feature into main (tree: c4 + web/app.js)
//	c6 Jan 10 bob    api/handlers/user.go
func shopRepo(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	var s stream
	c1 := s.commit("main", "Alice Liddell <alice@example.com>", day(1, 1).Add(9*time.Hour), "c1 initial import\n\nServer skeleton and readme.", 0, nil,
		file("README.md", "# shop\n"), file("api/server.go", "package api\n"))
	c2 := s.commit("main", "Bob Builder <bob@example.org>", day(1, 5).Add(10*time.Hour), "c2 serve health checks", c1, nil,
		file("api/server.go", "package api\n\nfunc Health() {}\n\nfunc Ready() {}\n"))
	c3 := s.commit("feature", "Carol Danvers <carol@example.net>", day(1, 6).Add(11*time.Hour), "c3 add web app", c2, nil,
		file("web/app.js", "console.log('shop')\n"))
	c4 := s.commit("main", "Alice Liddell <alice@example.com>", day(1, 7).Add(12*time.Hour), "c4 write the guide", c2, nil,
		file("docs/guide.md", "# guide\n"))
	s.tag("v1.0", c4, day(1, 7).Add(13*time.Hour))
	c5 := s.commit("main", "Alice Liddell <alice@example.com>", day(1, 8).Add(9*time.Hour), "c5 Merge branch 'feature'", c4, []int{c3},
		file("web/app.js", "console.log('shop')\n"))
	s.commit("main", "Bob Builder <bob@example.org>", day(1, 10).Add(8*time.Hour), "c6 user handlers\n\nFirst line of body.\nSecond line.", c5, nil,
		file("api/handlers/user.go", "package handlers\n"), file("README.md", "# shop\n\nusers\n"))
	importRepo(tb, dir, &s)
	runGit(tb, dir, nil, "remote", "add", "origin", "git@github.com:acme/shop.git")
	return dir
}

// largeRepo builds (once, then cached under os.TempDir) a repository
// of n mainline commits with a feature branch merged every 25 commits, one
// hour apart, ending at end, touching files in several directories, with
// an annotated tag v0.K.0 on every hundredth mainline commit and a
// lightweight tag light-K beside it.
func largeRepo(tb testing.TB, n int, end time.Time) string {
	tb.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("nous-git-bench-v2-%d-%d", n, end.Unix()))
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return dir
	}
	// Build beside it and rename into place, so concurrent test processes
	// never see a half-built repository.
	build, err := os.MkdirTemp(os.TempDir(), "nous-git-build-")
	require.NoError(tb, err)
	defer os.RemoveAll(build)
	dirs := []string{"api", "api/handlers", "web/src", "web/assets", "docs", "payments/ledger", "payments/gateway", "infra/terraform"}
	authors := []string{"Alice Liddell <alice@example.com>", "Bob Builder <bob@example.org>", "Carol Danvers <carol@example.net>", "Dan Brown <dan@example.com>"}
	var s stream
	total := n + (n-1)/25*4
	when := end.Add(-time.Duration(total) * time.Hour)
	tick := func() time.Time { when = when.Add(time.Hour); return when }
	edit := func(i int) fileChange {
		d := dirs[(i*7+i/3)%len(dirs)]
		return file(fmt.Sprintf("%s/file%d.txt", d, i%5), fmt.Sprintf("header\nrevision %d\nfooter %d\n", i, i%3))
	}
	tip := 0
	for i := 0; i < n; i++ {
		if i > 0 && i%25 == 0 {
			branch := fmt.Sprintf("feature-%d", i)
			side := tip
			var merged []fileChange
			for j := 0; j < 3; j++ {
				c := edit(i*10 + j)
				side = s.commit(branch, authors[(i+j+1)%len(authors)], tick(), fmt.Sprintf("feature %d step %d", i, j), side, nil, c)
				merged = append(merged, c)
			}
			// fast-import takes a merge's tree from its first parent: write
			// the branch's changes again, as a real merge would carry them.
			tip = s.commit("main", authors[i%len(authors)], tick(), fmt.Sprintf("Merge branch '%s'", branch), tip, []int{side}, merged...)
		}
		tip = s.commit("main", authors[i%len(authors)], tick(), fmt.Sprintf("change %d\n\nTouches one file.", i), tip, nil, edit(i))
		if i > 0 && i%100 == 0 {
			s.tag(fmt.Sprintf("v0.%d.0", i/100), tip, when)
			s.lightTag(fmt.Sprintf("light-%d", i/100), tip)
		}
	}
	importRepo(tb, build, &s)
	if err := os.Rename(build, dir); err != nil {
		// Another process won the race; its repository is the same.
		_, statErr := os.Stat(filepath.Join(dir, ".git"))
		require.NoError(tb, statErr, "renaming the built repository: %v", err)
	}
	return dir
}
