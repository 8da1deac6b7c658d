package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// coldRepoNow is the clock of the cold benchmark (NOUS_NOW): a Tuesday, so
// "last week" is Monday 2026-11-02 to Sunday 2026-11-08.
const coldRepoNow = "2026-11-10T12:00:00Z"

// coldRepoShape is the fixture's history: commits in the ten weeks before
// last week, in last week, and in this week so far.
var coldRepoShape = struct{ before, lastWeek, thisWeek int }{before: 260, lastWeek: 220, thisWeek: 20}

var (
	coldAuthors = []string{"Alice Chen", "Bob Okafor", "Carla Diaz", "Dmitri Volkov", "Emma Laine", "Farid Haddad"}
	coldDirs    = []string{"api", "api/handlers", "db/migrations", "web/src", "docs", "cmd/tool", "internal/cache", "internal/auth"}
	coldVerbs   = []string{"add", "fix", "refactor", "test", "document", "speed up", "remove", "rename"}
	coldThings  = []string{"pagination", "login redirect", "cache eviction", "schema migration", "rate limits", "error messages", "CLI flags", "retry loop"}
)

// coldRepo creates a git repository of a few hundred commits by several
// authors in several directories, dated relative to coldRepoNow, and
// returns its path. The history is the same at every call.
func coldRepo(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	now, err := time.Parse(time.RFC3339, coldRepoNow)
	if err != nil {
		b.Fatal(err)
	}
	lastMonday := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	var dates []time.Time
	for i := range coldRepoShape.before { // ten weeks until the Sunday before, oldest first
		dates = append(dates, lastMonday.AddDate(0, 0, -70).Add(time.Duration(i)*69*24*time.Hour/time.Duration(coldRepoShape.before)))
	}
	for i := range coldRepoShape.lastWeek { // Monday 09:00 to Sunday ~20:00
		dates = append(dates, lastMonday.Add(time.Duration(i)*(7*24-14)*time.Hour/time.Duration(coldRepoShape.lastWeek)))
	}
	thisMonday := lastMonday.AddDate(0, 0, 7)
	for i := range coldRepoShape.thisWeek { // until an hour before now
		dates = append(dates, thisMonday.Add(time.Duration(i)*now.Add(-time.Hour).Sub(thisMonday)/time.Duration(coldRepoShape.thisWeek)))
	}

	var stream bytes.Buffer
	files := map[string][]byte{}
	for i, date := range dates {
		pick := func(salt uint32, from []string) string { // a fixed scramble of i (lowbias32)
			x := uint32(i)<<3 | salt
			x ^= x >> 16
			x *= 0x7feb352d
			x ^= x >> 15
			x *= 0x846ca68b
			x ^= x >> 16
			return from[x%uint32(len(from))]
		}
		author := pick(1, coldAuthors)
		email := strings.ToLower(strings.Fields(author)[0]) + "@example.com"
		area := pick(2, coldDirs)
		msg := fmt.Sprintf("%s: %s %s", filepath.Base(area), pick(3, coldVerbs), pick(4, coldThings))
		fmt.Fprintf(&stream, "commit refs/heads/main\nmark :%d\n", i+1)
		fmt.Fprintf(&stream, "author %s <%s> %d +0000\ncommitter %s <%s> %d +0000\n", author, email, date.Unix(), author, email, date.Unix())
		fmt.Fprintf(&stream, "data %d\n%s\n", len(msg), msg)
		if i > 0 {
			fmt.Fprintf(&stream, "from :%d\n", i)
		}
		for f := range 1 + i%3 { // one to three files per commit
			path := fmt.Sprintf("%s/file%d.go", area, (i+f)%4)
			files[path] = fmt.Appendf(files[path], "// %d: %s\n", i, msg)
			fmt.Fprintf(&stream, "M 100644 inline %s\ndata %d\n%s\n", path, len(files[path]), files[path])
		}
	}
	git := func(stdin []byte, args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Stdin = bytes.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(nil, "init", "-q", "-b", "main")
	git(stream.Bytes(), "fast-import", "--quiet")
	git(nil, "reset", "-q", "--hard", "main")
	return dir
}
