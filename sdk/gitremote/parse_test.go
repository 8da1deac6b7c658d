package gitremote

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	gh := func(p string) *sdk.Remote { return &sdk.Remote{Host: "github.com", Path: p, Kind: sdk.RemoteGitHub} }
	gl := func(p string) *sdk.Remote { return &sdk.Remote{Host: "gitlab.com", Path: p, Kind: sdk.RemoteGitLab} }
	other := func(h, p string) *sdk.Remote { return &sdk.Remote{Host: h, Path: p} }
	tests := []struct {
		raw  string
		want *sdk.Remote // nil: no remote
	}{
		// Every form git accepts for a hosted project.
		{"https://github.com/hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"https://github.com/hashicorp/hcl", gh("hashicorp/hcl")},
		{"https://github.com/hashicorp/hcl/", gh("hashicorp/hcl")},
		{"https://github.com/hashicorp/hcl.git/", gh("hashicorp/hcl")},
		{"  https://github.com/hashicorp/hcl\n", gh("hashicorp/hcl")},
		{"http://github.com/hashicorp/hcl", gh("hashicorp/hcl")},
		{"HTTPS://GitHub.COM/HashiCorp/HCL.git", gh("HashiCorp/HCL")},
		{"https://github.com./hashicorp/hcl", gh("hashicorp/hcl")},
		{"https://www.github.com/hashicorp/hcl.git", &sdk.Remote{Host: "www.github.com", Path: "hashicorp/hcl", Kind: sdk.RemoteGitHub}},
		{"ssh://git@github.com/hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"ssh://git@github.com:22/hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"ssh://git@ssh.github.com:443/hashicorp/hcl.git", &sdk.Remote{Host: "ssh.github.com", Path: "hashicorp/hcl", Kind: sdk.RemoteGitHub}},
		{"git+ssh://git@github.com/hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"ssh+git://git@github.com/hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"git@github.com:hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"git@github.com:hashicorp/hcl", gh("hashicorp/hcl")},
		{"git@github.com:/hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"github.com:hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"git://github.com/hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"https://gitlab.com/gitlab-org/gitlab.git", gl("gitlab-org/gitlab")},
		{"git@gitlab.com:group/sub/subsub/proj.git", gl("group/sub/subsub/proj")},
		{"https://gitlab.com/group/sub/proj/", gl("group/sub/proj")},
		{"https://git.example.com:8443/platform/api.git", other("git.example.com", "platform/api")},
		{"ssh://git@[2001:db8::1]:2222/team/repo.git", other("2001:db8::1", "team/repo")},
		{"git@[2001:db8::1]:team/repo.git", other("2001:db8::1", "team/repo")},
		{"git@10.0.0.7:team/repo.git", other("10.0.0.7", "team/repo")},
		{"ssh://git@example.org/~alice/dotfiles.git", other("example.org", "~alice/dotfiles")},
		{"https://git.example.com/solo.git", other("git.example.com", "solo")},
		// Credentials are dropped.
		{"https://x-access-token:ghp_s3cret@github.com/hashicorp/hcl.git", gh("hashicorp/hcl")},
		{"https://oauth2:glpat-s3cret@gitlab.com/group/proj.git", gl("group/proj")},
		{"https://ghp_s3cret@github.com/hashicorp/hcl", gh("hashicorp/hcl")},
		{"https://user:p@ss@github.com/hashicorp/hcl", gh("hashicorp/hcl")},
		{"user:s3cret@github.com:hashicorp/hcl.git", gh("hashicorp/hcl")},
		// Not a hosted project.
		{"", nil},
		{"   ", nil},
		{"/srv/git/hcl.git", nil},
		{"../hcl", nil},
		{"./dir:with/colon", nil},
		{"file:///srv/git/hcl.git", nil},
		{"file://localhost/srv/git/hcl.git", nil},
		{"C:/src/hcl", nil},
		{`C:\src\hcl`, nil},
		{"ftp://example.com/team/repo.git", nil},
		{"svn+ssh://example.com/team/repo", nil},
		{"javascript://github.com/a/b", nil},
		{"https://github.com/", nil},
		{"https://github.com/hashicorp", nil},
		{"https://github.com/hashicorp/hcl/tree/main", nil},
		{"https://gitlab.com/group", nil},
		{"https://github.com", nil},
		{"git@github.com:", nil},
		{"git@github.com", nil},
		{"https:///hashicorp/hcl", nil},
		{"https://github.com/hashicorp/hcl?token=s3cret", nil},
		{"https://github.com/hashicorp/hcl#frag", nil},
		{"https://github.com/hashi%2Fcorp/hcl", nil},
		{"https://github.com/hashi%25corp/hcl", nil},
		{"https://github.com/../../etc/passwd", nil},
		{"https://example.com/a/./b", nil},
		{"https://example.com/a//b", nil},
		{"git@github.com:hashicorp/../hcl", nil},
		{"https://github.com/hashi corp/hcl", nil},
		{"git@github.com:hashi\ncorp/hcl", nil},
		{"git@github.com:hashi\x00corp/hcl", nil},
		{"https://github.com/hashicorp/hcl\x1b[31m", nil},
		{"https://gith\u00fcb.com/a/b", nil},
		{"git@gith\u00fcb.com:a/b", nil},
		{"git@-github.com:a/b", nil},
		{"git@.github.com:a/b", nil},
		{"git@a..b:a/b", nil},
		{"git@[::1:a/b", nil},
		{"https://github.com:notaport/a/b", nil},
		{"https://" + strings.Repeat("a", 300) + ".com/a/b", nil},
		{"https://example.com/" + strings.Repeat("g/", maxRemoteSegments) + "p", nil},
		{"https://example.com/" + strings.Repeat("a", maxRemoteBytes), nil},
		{".git", nil},
		{"https://github.com/a/.git", nil},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, ok := Parse(tt.raw, nil)
			if tt.want == nil {
				assert.False(t, ok, "got %+v", got)
				assert.Zero(t, got)
				return
			}
			require.True(t, ok)
			assert.Equal(t, *tt.want, got)
			assert.NotContains(t, got.Host+got.Path, "s3cret")
		})
	}
}

func TestParseAcceptsGitLabsDeepestNesting(t *testing.T) {
	p := strings.Repeat("g/", maxRemoteSegments-1) + "p"
	got, ok := Parse("https://gitlab.com/"+p+".git", nil)
	require.True(t, ok)
	assert.Equal(t, p, got.Path)
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"https://github.com/hashicorp/hcl.git", "git@github.com:hashicorp/hcl.git",
		"ssh://git@host:22/a/b.git", "https://user:tok@gitlab.com/g/s/p/", "git@[::1]:a/b",
		"/srv/git/x", "file:///x", "C:/x", "https://h/a%2Fb", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		r, ok := Parse(raw, nil)
		if !ok {
			assert.Zero(t, r)
			return
		}
		require.NotEmpty(t, r.Host)
		require.NotEmpty(t, r.Path)
		assert.True(t, utf8.ValidString(r.Host) && utf8.ValidString(r.Path))
		assert.NotContains(t, r.Host, "@", "user info must never reach the host")
		assert.NotContains(t, r.Path, "@", "user info must never reach the path")
		assert.False(t, strings.HasSuffix(r.Path, ".git") || strings.HasPrefix(r.Path, "/") || strings.HasSuffix(r.Path, "/"))
		for seg := range strings.SplitSeq(r.Path, "/") {
			assert.NotContains(t, []string{"", ".", ".."}, seg)
		}
		assert.Contains(t, []string{"", sdk.RemoteGitHub, sdk.RemoteGitLab}, r.Kind)
		again, ok := Parse("https://"+bracketed(r.Host)+"/"+r.Path, nil)
		require.True(t, ok, "the parsed remote must parse again")
		assert.Equal(t, r, again)
	})
}

// bracketed puts an IPv6 host in brackets, as a URL needs.
func bracketed(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

func BenchmarkParse(b *testing.B) {
	remotes := []string{
		"https://x-access-token:tok@github.com/hashicorp/hcl.git",
		"git@gitlab.com:group/sub/proj.git",
		"ssh://git@git.example.com:2222/team/repo.git",
		"/srv/git/repo.git",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Parse(remotes[i%len(remotes)], nil)
	}
}
