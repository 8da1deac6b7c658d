package git

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/gitremote"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// configured returns a git source configured with cfg (a JSON object).
func configured(t testing.TB, cfg string) *Source {
	t.Helper()
	s := New()
	diags, err := s.Configure(context.Background(), json.RawMessage(cfg))
	require.NoError(t, err)
	require.False(t, diags.HasErrors(), "diagnostics: %+v", diags)
	return s
}

// subjects returns the first word of each record's title ("c1", "c2", …).
func subjects(recs []sdk.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i], _, _ = strings.Cut(r.Title, " ")
	}
	return out
}

func pathConfig(dir string) string {
	b, _ := json.Marshal(map[string]string{"path": dir})
	return string(b)
}

func TestFetchFilters(t *testing.T) {
	s := configured(t, pathConfig(shopRepo(t)))
	tests := []struct {
		name string
		req  sdk.FetchRequest
		want []string
	}{
		{"everything newest first", sdk.FetchRequest{}, []string{"c6", "c5", "c4", "c3", "c2", "c1"}},
		{"kind commit", sdk.FetchRequest{Kind: sdk.KindCommit}, []string{"c6", "c5", "c4", "c3", "c2", "c1"}},
		{"since", sdk.FetchRequest{Since: day(1, 6)}, []string{"c6", "c5", "c4", "c3"}},
		{"until is exclusive", sdk.FetchRequest{Until: day(1, 7).Add(12 * time.Hour)}, []string{"c3", "c2", "c1"}},
		{"since and until", sdk.FetchRequest{Since: day(1, 5), Until: day(1, 8)}, []string{"c4", "c3", "c2"}},
		{"limit", sdk.FetchRequest{Limit: 2}, []string{"c6", "c5"}},
		{"directory", sdk.FetchRequest{Filters: map[string][]string{"path": {"api"}}}, []string{"c6", "c2", "c1"}},
		{"nested directory", sdk.FetchRequest{Filters: map[string][]string{"path": {"api/handlers/"}}}, []string{"c6"}},
		{"file", sdk.FetchRequest{Filters: map[string][]string{"paths": {"./README.md"}}}, []string{"c6", "c1"}},
		{"branch path through a merge", sdk.FetchRequest{Filters: map[string][]string{"path": {"web"}}}, []string{"c3"}},
		{"several paths, merge differing from each parent", sdk.FetchRequest{Filters: map[string][]string{"path": {"web"}, "paths": {"docs"}}}, []string{"c5", "c4", "c3"}},
		{"missing path", sdk.FetchRequest{Filters: map[string][]string{"path": {"nowhere"}}}, nil},
		{"root path is no filter", sdk.FetchRequest{Filters: map[string][]string{"path": {"."}}, Limit: 3}, []string{"c6", "c5", "c4"}},
		{"path and since", sdk.FetchRequest{Since: day(1, 2), Filters: map[string][]string{"path": {"api"}}}, []string{"c6", "c2"}},
		{"author name, any case", sdk.FetchRequest{Filters: map[string][]string{"authors": {"ALICE"}}}, []string{"c5", "c4", "c1"}},
		{"author email substring", sdk.FetchRequest{Filters: map[string][]string{"author": {"@example.org"}}}, []string{"c6", "c2"}},
		{"several authors", sdk.FetchRequest{Filters: map[string][]string{"authors": {"carol", "bob"}}}, []string{"c6", "c3", "c2"}},
		{"message query", sdk.FetchRequest{Filters: map[string][]string{"query": {"HEALTH"}}}, []string{"c2"}},
		{"branch ref", sdk.FetchRequest{Filters: map[string][]string{"ref": {"feature"}}}, []string{"c3", "c2", "c1"}},
		{"annotated tag ref", sdk.FetchRequest{Filters: map[string][]string{"ref": {"v1.0"}}}, []string{"c4", "c2", "c1"}},
		{"revision expression", sdk.FetchRequest{Filters: map[string][]string{"ref": {"main~1"}}}, []string{"c5", "c4", "c3", "c2", "c1"}},
		{"topics, any of", sdk.FetchRequest{Filters: map[string][]string{"topics": {"GUIDE", "health"}}}, []string{"c4", "c2"}},
		{"topic in the body", sdk.FetchRequest{Filters: map[string][]string{"topics": {"second line"}}}, []string{"c6"}},
		{"author across name and email", sdk.FetchRequest{Filters: map[string][]string{"authors": {"builder <bob"}}}, []string{"c6", "c2"}},
		{"revision range", sdk.FetchRequest{Filters: map[string][]string{"revisions": {"v1.0..main"}}}, []string{"c6", "c5", "c3"}},
		{"revision range to HEAD", sdk.FetchRequest{Filters: map[string][]string{"revisions": {"v1.0.."}}}, []string{"c6", "c5", "c3"}},
		{"revision range from HEAD", sdk.FetchRequest{Filters: map[string][]string{"revisions": {"..feature"}}}, nil},
		{"merged branch range is empty", sdk.FetchRequest{Filters: map[string][]string{"revisions": {"main..feature"}}}, nil},
		{"revisions union", sdk.FetchRequest{Filters: map[string][]string{"revisions": {"v1.0..main", "feature~1"}}}, []string{"c6", "c5", "c3", "c2", "c1"}},
		{"range to HEAD follows the ref filter", sdk.FetchRequest{Filters: map[string][]string{"revisions": {"v1.0.."}, "ref": {"feature"}}}, []string{"c3"}},
		{"unknown filters are ignored", sdk.FetchRequest{Filters: map[string][]string{"projects": {"shop"}, "dates": {"last week"}}, Limit: 1}, []string{"c6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := plugintest.Fetch(t, s, tt.req)
			assert.Equal(t, tt.want, nilIfEmpty(subjects(recs)))
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestFetchRecord(t *testing.T) {
	dir := shopRepo(t)
	head := strings.TrimSpace(runGit(t, dir, nil, "rev-parse", "HEAD"))
	s := configured(t, pathConfig(dir))
	recs := plugintest.Fetch(t, s, sdk.FetchRequest{Limit: 1})
	require.Len(t, recs, 1)
	r := recs[0]
	assert.Equal(t, head, r.ID)
	assert.Equal(t, strings.TrimSpace(runGit(t, dir, nil, "rev-parse", "--short=7", "HEAD")), r.Fields["short_id"])
	assert.Equal(t, "git", r.Source)
	assert.Equal(t, sdk.KindCommit, r.Kind)
	assert.Equal(t, "c6 user handlers", r.Title)
	assert.Equal(t, "First line of body.\nSecond line.", r.Body)
	assert.Equal(t, "Bob Builder", r.Author)
	assert.True(t, day(1, 10).Add(8*time.Hour).Equal(r.Time))
	assert.Equal(t, "https://github.com/acme/shop/commit/"+head, r.URL)
	assert.Equal(t, head, r.Fields["sha"])
	assert.Equal(t, "main", r.Fields["ref"])
	assert.Equal(t, "bob@example.org", r.Fields["author_email"])
	assert.Equal(t, int64(1), r.Fields["parents"])
	// c6 adds a one-line file and adds two lines to README.md.
	assert.Equal(t, int64(2), r.Fields["files"])
	assert.Equal(t, int64(3), r.Fields["additions"])
	assert.Equal(t, int64(0), r.Fields["deletions"])
	assert.ElementsMatch(t, []string{"README.md", "api/handlers/user.go"}, r.Fields["paths"])

	// The stats match git's own count of c2.
	c2 := plugintest.Fetch(t, s, sdk.FetchRequest{Filters: map[string][]string{"query": {"c2 "}}})
	require.Len(t, c2, 1)
	numstat := strings.Fields(runGit(t, dir, nil, "show", "--format=", "--numstat", c2[0].Fields["sha"].(string)))
	require.Len(t, numstat, 3)
	assert.Equal(t, numstat[0], itoa(c2[0].Fields["additions"]))
	assert.Equal(t, numstat[1], itoa(c2[0].Fields["deletions"]))

	withoutStats := plugintest.Fetch(t, s, sdk.FetchRequest{Limit: 1, Filters: map[string][]string{"with_stats": {"false"}}})
	require.Len(t, withoutStats, 1)
	assert.NotContains(t, withoutStats[0].Fields, "additions")
}

func itoa(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestConfigure(t *testing.T) {
	dir := shopRepo(t)
	sub := filepath.Join(dir, "api")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	head := strings.TrimSpace(runGit(t, dir, nil, "rev-parse", "HEAD"))

	t.Run("discovers .git upward and accepts repo", func(t *testing.T) {
		b, _ := json.Marshal(map[string]any{"repo": sub, "source": "shop", "stats": false})
		recs := plugintest.Fetch(t, configured(t, string(b)), sdk.FetchRequest{Limit: 1})
		require.Len(t, recs, 1)
		assert.Equal(t, "shop", recs[0].Source)
		assert.NotContains(t, recs[0].Fields, "files")
	})
	t.Run("commit_url template", func(t *testing.T) {
		b, _ := json.Marshal(map[string]any{"path": dir, "commit_url": "https://git.example.com/shop/-/commit/{sha}", "ref": "main"})
		recs := plugintest.Fetch(t, configured(t, string(b)), sdk.FetchRequest{Limit: 1})
		require.Len(t, recs, 1)
		assert.Equal(t, "https://git.example.com/shop/-/commit/"+head, recs[0].URL)
	})
	t.Run("not a repository", func(t *testing.T) {
		plain := t.TempDir()
		s := New()
		diags, err := s.Configure(context.Background(), json.RawMessage(pathConfig(plain)))
		require.NoError(t, err)
		require.True(t, diags.HasErrors())
		assert.Contains(t, diags[0].Summary, "not a git repository")
		assert.Contains(t, diags[0].Summary, plain)
		err = s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { return nil })
		require.Error(t, err)
		assert.Contains(t, err.Error(), plain)
		assert.True(t, errors.Is(err, sdk.ErrNotFound))
	})
	t.Run("unconfigured", func(t *testing.T) {
		err := New().Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { return nil })
		assert.ErrorIs(t, err, sdk.ErrBadConfig)
	})
	bad := []struct {
		name, cfg, want string
		isError         bool
	}{
		{"not an object", `[1]`, "not a JSON object", true},
		{"wrong type", `{"stats": "yes"}`, "config stats: want true or false", true},
		{"both path and repo", `{"path": "a", "repo": "b"}`, "both path", true},
		{"template without sha", `{"commit_url": "https://x"}`, "no {sha} placeholder", true},
		{"unknown key is a warning", `{"path": ".", "branch": "main"}`, `unknown config key "branch"`, false},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			diags, err := New().Configure(context.Background(), json.RawMessage(tt.cfg))
			require.NoError(t, err)
			require.NotEmpty(t, diags)
			assert.Equal(t, tt.isError, diags.HasErrors())
			var summaries []string
			for _, d := range diags {
				summaries = append(summaries, d.Summary)
			}
			assert.Contains(t, strings.Join(summaries, "\n"), tt.want)
		})
	}
}

func TestFetchErrors(t *testing.T) {
	dir := shopRepo(t)
	s := configured(t, pathConfig(dir))
	tests := []struct {
		name string
		req  sdk.FetchRequest
		want string
		kind *sdk.Error
	}{
		{"bad ref", sdk.FetchRequest{Filters: map[string][]string{"ref": {"no-such-branch"}}}, `unknown ref "no-such-branch" in repository ` + dir, sdk.ErrNotFound},
		{"two refs", sdk.FetchRequest{Filters: map[string][]string{"ref": {"main", "feature"}}}, "ref takes one value", sdk.ErrBadRequest},
		{"other kind", sdk.FetchRequest{Kind: sdk.KindIssue}, `not "issue"`, sdk.ErrBadRequest},
		{"path outside", sdk.FetchRequest{Filters: map[string][]string{"path": {"../etc"}}}, `path="../etc": path leaves the repository`, sdk.ErrBadRequest},
		{"absolute path", sdk.FetchRequest{Filters: map[string][]string{"path": {"/etc"}}}, "relative to the repository root", sdk.ErrBadRequest},
		{"symmetric range", sdk.FetchRequest{Filters: map[string][]string{"revisions": {"main...feature"}}}, `revisions="main...feature": symmetric differences`, sdk.ErrBadRequest},
		{"range without ends", sdk.FetchRequest{Filters: map[string][]string{"revisions": {".."}}}, "needs at least one end", sdk.ErrBadRequest},
		{"two ranges in one value", sdk.FetchRequest{Filters: map[string][]string{"revisions": {"a..b..c"}}}, "want one range", sdk.ErrBadRequest},
		{"unknown ref in a range", sdk.FetchRequest{Filters: map[string][]string{"revisions": {"v9..main"}}}, `unknown ref "v9"`, sdk.ErrNotFound},
		{"too many ranges", sdk.FetchRequest{Filters: map[string][]string{"revisions": strings.Fields(strings.Repeat("main ", 17))}}, "at most 16", sdk.ErrBadRequest},
		{"bad with_stats", sdk.FetchRequest{Filters: map[string][]string{"with_stats": {"maybe"}}}, `with_stats="maybe"`, sdk.ErrBadRequest},
		{"empty range", sdk.FetchRequest{Since: day(2, 1), Until: day(1, 1)}, "is not before until", sdk.ErrBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Fetch(context.Background(), tt.req, func(sdk.Record) error { return nil })
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.ErrorIs(t, err, tt.kind)
		})
	}

	t.Run("emit error stops the walk", func(t *testing.T) {
		stop := errors.New("enough")
		calls := 0
		err := s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { calls++; return stop })
		assert.ErrorIs(t, err, stop)
		assert.Equal(t, 1, calls)
	})
	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := s.Fetch(ctx, sdk.FetchRequest{}, func(sdk.Record) error { return nil })
		assert.ErrorIs(t, err, sdk.ErrDeadline)
		assert.ErrorIs(t, err, context.Canceled)
	})
}

func TestEmptyRepository(t *testing.T) {
	dir := t.TempDir()
	runGit(t, dir, nil, "init", "-q")
	assert.Empty(t, plugintest.Fetch(t, configured(t, pathConfig(dir)), sdk.FetchRequest{}))
}

func TestCommitURLFunc(t *testing.T) {
	tests := []struct {
		remote, want string
	}{
		{"git@github.com:acme/shop.git", "https://github.com/acme/shop/commit/abc"},
		{"https://github.com/acme/shop", "https://github.com/acme/shop/commit/abc"},
		{"https://user:s3cret@gitlab.com/group/sub/proj.git", "https://gitlab.com/group/sub/proj/-/commit/abc"},
		{"ssh://git@bitbucket.org/team/repo.git", "https://bitbucket.org/team/repo/commits/abc"},
		{"https://git.internal.example/acme/shop.git", ""},
		{"https://ghe.acme.example/acme/shop.git", "https://ghe.acme.example/acme/shop/commit/abc"},
		{"git@gitlab.acme.example:acme/shop.git", "https://gitlab.acme.example/acme/shop/-/commit/abc"},
		{"/srv/git/shop.git", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.remote, func(t *testing.T) {
			var remote *sdk.Remote
			hosts := gitremote.Hosts{"ghe.acme.example": sdk.RemoteGitHub, "gitlab.acme.example": sdk.RemoteGitLab}
			if r, ok := gitremote.Parse(tt.remote, hosts); ok {
				remote = &r
			}
			link := commitURLFunc("", remote)
			if tt.want == "" {
				assert.Nil(t, link)
				return
			}
			require.NotNil(t, link)
			assert.Equal(t, tt.want, link("abc"))
			assert.NotContains(t, link("abc"), "s3cret")
		})
	}
}

func TestDescribe(t *testing.T) {
	info, err := New().Describe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "git", info.Name)
	assert.Equal(t, []string{sdk.KindCommit}, info.Kinds)
	assert.Contains(t, info.Filters, "path")
	assert.True(t, json.Valid(info.ConfigSchema))
}

// TestConcurrentFetches shares one source between goroutines, as the
// plugin server does; run with -race.
func TestConcurrentFetches(t *testing.T) {
	s := configured(t, pathConfig(shopRepo(t)))
	want := subjects(plugintest.Fetch(t, s, sdk.FetchRequest{Filters: map[string][]string{"path": {"api"}}}))
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			var got []sdk.Record
			err := s.Fetch(context.Background(), sdk.FetchRequest{Filters: map[string][]string{"path": {"api"}}}, func(r sdk.Record) error {
				got = append(got, r)
				return nil
			})
			if err == nil && strings.Join(subjects(got), ",") != strings.Join(want, ",") {
				err = errors.New("different records: " + strings.Join(subjects(got), ","))
			}
			errs <- err
		}()
	}
	for range 4 {
		assert.NoError(t, <-errs)
	}
}
