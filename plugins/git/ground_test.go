package git

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// groundRepo is shopRepo with a nested tree, a lightweight tag, a tag
// pair that makes "2.0" ambiguous and a remote-tracking branch.
func groundRepo(t *testing.T) string {
	t.Helper()
	dir := shopRepo(t)
	runGit(t, dir, nil, "tag", "v1.1", "main~1")
	runGit(t, dir, nil, "tag", "v2.0", "main")
	runGit(t, dir, nil, "tag", "2.0", "main~2")
	runGit(t, dir, nil, "update-ref", "refs/remotes/origin/release", "main~3")
	return dir
}

func TestGround(t *testing.T) {
	dir := groundRepo(t)
	s := configured(t, pathConfig(dir))
	rev := func(r string) string { return strings.TrimSpace(runGit(t, dir, nil, "rev-parse", r+"^{commit}")) }
	tests := []struct {
		kind, value string
		known       bool
		canonical   []string
		id          string
		note        string
	}{
		{sdk.TermPath, "api/handlers", true, []string{"api/handlers"}, "", ""},
		{sdk.TermPath, "./api/handlers/", true, []string{"api/handlers"}, "", ""},
		{sdk.TermPath, "api/handlers/user.go", true, []string{"api/handlers/user.go"}, "", ""},
		{sdk.TermPath, "handlers", true, []string{"api/handlers"}, "", "matched by name"},
		{sdk.TermPath, "user.go", true, []string{"api/handlers/user.go"}, "", "matched by name"},
		{sdk.TermPath, "USER.GO", false, nil, "", `no file or directory named "USER.GO"`}, // deep: exact case only
		{sdk.TermPath, "api", true, []string{"api"}, "", ""},
		{sdk.TermPath, "payments", false, nil, "", `no file or directory named "payments"`},
		{sdk.TermPath, "api/payments", false, nil, "", `no file or directory "api/payments"`},
		{sdk.TermPath, "../etc", false, nil, "", "leaves the repository"},
		{sdk.TermAuthor, "alice", true, []string{"alice"}, "", "matches Alice Liddell"},
		{sdk.TermAuthor, "BUILDER <bob", true, []string{"BUILDER <bob"}, "", "matches Bob Builder"},
		{sdk.TermAuthor, "example", true, []string{"Alice Liddell", "Bob Builder", "Carol Danvers"}, "", "by commits: Alice Liddell 3, Bob Builder 2, Carol Danvers 1"},
		{sdk.TermAuthor, "Radek", false, nil, "", `no author matches "Radek" in 6 commits`},
		{sdk.TermAuthor, "Release Bot", false, nil, "", "no author matches"}, // a tagger, not an author
		{sdk.TermRef, "v1.0", true, []string{"v1.0"}, rev("v1.0"), ""},
		{sdk.TermRef, "1.0", true, []string{"v1.0"}, rev("v1.0"), "matched tag v1.0"},
		{sdk.TermRef, "v1.1", true, []string{"v1.1"}, rev("v1.1"), ""},
		{sdk.TermRef, "2.0", true, []string{"2.0"}, rev("2.0"), ""}, // exact wins
		{sdk.TermRef, "feature", true, []string{"feature"}, rev("feature"), ""},
		{sdk.TermRef, "origin/release", true, []string{"origin/release"}, rev("origin/release"), ""},
		{sdk.TermRef, "v3", false, nil, "", `no tag or branch "v3"`},
		{sdk.TermProject, "acme/shop", true, []string{"acme/shop"}, "", ""},
		{sdk.TermProject, "SHOP", true, []string{"acme/shop"}, "", ""},
		{sdk.TermProject, "payments", false, nil, "", "the repository is acme/shop"},
		{sdk.TermLabel, "bug", false, nil, "", "no labels"},
		{sdk.TermState, "open", false, nil, "", "no states"},
		{"colour", "red", false, nil, "", `unknown term kind "colour"`},
	}
	var terms []sdk.Term
	for _, tt := range tests {
		terms = append(terms, sdk.Term{Kind: tt.kind, Value: tt.value})
	}
	resp, err := s.Ground(context.Background(), sdk.GroundRequest{Terms: terms})
	require.NoError(t, err)
	require.Len(t, resp.Terms, len(tests))
	for i, tt := range tests {
		t.Run(tt.kind+" "+tt.value, func(t *testing.T) {
			g := resp.Terms[i]
			assert.Equal(t, tt.kind, g.Kind)
			assert.Equal(t, tt.value, g.Value)
			assert.Equal(t, tt.known, g.Known, "note: %s", g.Note)
			assert.Equal(t, tt.canonical, g.Canonical)
			assert.Equal(t, tt.id, g.ID)
			assert.Contains(t, g.Note, tt.note)
			if tt.id != "" {
				want := strings.TrimSpace(runGit(t, dir, nil, "show", "-s", "--format=%ct", tt.id))
				assert.Equal(t, want, itoa(g.Time.Unix()))
			}
		})
	}
	assert.Equal(t, "acme/shop", resp.Coverage.Name)
	assert.True(t, day(1, 1).Add(9*time.Hour).Equal(resp.Coverage.Earliest))
	assert.True(t, day(1, 10).Add(8*time.Hour).Equal(resp.Coverage.Latest))
	assert.Empty(t, resp.Coverage.Truncated)
	assert.Contains(t, resp.Filters, "revisions")
}

// TestGroundPathNames: a bare name is a path when it names a top-level
// entry (in any case) or, deeper in the tree, a file or directory in
// exactly the case written: "git" in git/git is not perl/Git.
func TestGroundPathNames(t *testing.T) {
	dir := t.TempDir()
	var s stream
	s.commit("main", "Alice Liddell <alice@example.com>", day(1, 1), "c1 tree", 0, nil,
		file("Makefile", "all:\n"), file("perl/Git.pm", "1;\n"), file("perl/Git/SVN.pm", "1;\n"),
		file("t/Makefile", "test:\n"), file("t/helper/test-tool.c", "int main;\n"),
		file("Documentation/howto/index.txt", "howto\n"), file("builtin/log.c", "int log;\n"))
	importRepo(t, dir, &s)
	runGit(t, dir, nil, "remote", "add", "origin", "https://github.com/git/git.git")
	src := configured(t, pathConfig(dir))
	tests := []struct {
		value     string
		canonical []string // nil: not known
		note      string
	}{
		{"git", nil, `no file or directory named "git"`}, // not perl/Git
		{"GIT", nil, `no file or directory named "GIT"`},
		{"Git", []string{"perl/Git"}, "matched by name"},
		{"perl", []string{"perl"}, ""},
		{"PERL", []string{"perl"}, "matched by name in another case"},
		{"documentation", []string{"Documentation"}, "matched by name in another case"},
		{"howto", []string{"Documentation/howto"}, "matched by name"},
		{"HowTo", nil, `no file or directory named "HowTo"`},
		{"Makefile", []string{"Makefile"}, ""}, // the top-level one, not also t/Makefile
		{"helper", []string{"t/helper"}, "matched by name"},
		{"SVN.pm", []string{"perl/Git/SVN.pm"}, "matched by name"},
		{"svn.pm", nil, `no file or directory named "svn.pm"`},
		{"perl/git", nil, `no file or directory "perl/git"`},
	}
	var terms []sdk.Term
	for _, tt := range tests {
		terms = append(terms, sdk.Term{Kind: sdk.TermPath, Value: tt.value})
	}
	resp, err := src.Ground(context.Background(), sdk.GroundRequest{Terms: terms})
	require.NoError(t, err)
	require.Len(t, resp.Terms, len(tests))
	assert.Equal(t, "git/git", resp.Coverage.Name)
	for i, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			g := resp.Terms[i]
			assert.Equal(t, tt.canonical != nil, g.Known, "note: %s", g.Note)
			assert.Equal(t, tt.canonical, g.Canonical)
			assert.Contains(t, g.Note, tt.note)
		})
	}
}

// TestGroundAuthorsMatchGitLog checks that an author term is known exactly
// when `git log -i -F --author` finds commits.
func TestGroundAuthorsMatchGitLog(t *testing.T) {
	dir := largeRepo(t, 400, time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC))
	s := configured(t, pathConfig(dir))
	values := []string{"alice", "LIDDELL", "n <dan@", "example.org>", "@example.net", "Release Bot", "zed", "a", "Carol Danvers <carol@example.net>"}
	var terms []sdk.Term
	for _, v := range values {
		terms = append(terms, sdk.Term{Kind: sdk.TermAuthor, Value: v})
	}
	resp, err := s.Ground(context.Background(), sdk.GroundRequest{Terms: terms})
	require.NoError(t, err)
	for i, v := range values {
		found := strings.TrimSpace(runGit(t, dir, nil, "log", "-1", "-i", "--fixed-strings", "--author="+v, "--format=%H")) != ""
		assert.Equal(t, found, resp.Terms[i].Known, "author %q: %s", v, resp.Terms[i].Note)
	}
}

func TestGroundEmptyAndUnconfigured(t *testing.T) {
	dir := t.TempDir()
	runGit(t, dir, nil, "init", "-q")
	resp, err := configured(t, pathConfig(dir)).Ground(context.Background(), sdk.GroundRequest{Terms: []sdk.Term{
		{Kind: sdk.TermPath, Value: "src"}, {Kind: sdk.TermProject, Value: dirBase(dir)},
	}})
	require.NoError(t, err)
	assert.False(t, resp.Terms[0].Known)
	assert.Equal(t, "the repository has no commits yet", resp.Terms[0].Note)
	assert.True(t, resp.Terms[1].Known)
	assert.True(t, resp.Coverage.Latest.IsZero())

	_, err = New().Ground(context.Background(), sdk.GroundRequest{})
	assert.ErrorIs(t, err, sdk.ErrBadConfig)
}

func dirBase(p string) string { return p[strings.LastIndex(p, "/")+1:] }
