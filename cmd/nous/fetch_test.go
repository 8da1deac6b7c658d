package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugins/file"
	"github.com/nous-dev/nous/plugins/git"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFetchRequest(t *testing.T) {
	now := time.Date(2024, 3, 13, 15, 0, 0, 0, time.UTC)
	day := func(m time.Month, d int) time.Time { return time.Date(2024, m, d, 0, 0, 0, 0, time.UTC) }

	req, err := fetchRequest(fetchOptions{format: "text", limit: 5, kind: "issue", filters: []string{
		"projects=PAY", "statuses=open", "projects=OPS", "dates=last week", "dates=2024-02-01", "query=a=b",
	}}, now)
	require.NoError(t, err)
	assert.Equal(t, map[string][]string{"projects": {"PAY", "OPS"}, "statuses": {"open"}, "query": {"a=b"}}, req.Filters,
		"repeated keys accumulate; dates leave the filters for Since/Until")
	assert.True(t, day(2, 1).Equal(req.Since), "the union of the dates starts at the earliest")
	assert.True(t, day(3, 11).Equal(req.Until), "and ends at the latest")
	assert.Equal(t, 5, req.Limit)
	assert.Equal(t, "issue", req.Kind)

	bad := []struct {
		opts fetchOptions
		want string
	}{
		{fetchOptions{format: "yaml"}, `--format: want text, jsonl or json, got "yaml"`},
		{fetchOptions{format: "json", limit: -1}, "--limit: want 0 or more"},
		{fetchOptions{format: "json", filters: []string{"projects"}}, `--filter "projects": want key=value`},
		{fetchOptions{format: "json", filters: []string{"=x"}}, `--filter "=x": want key=value`},
		{fetchOptions{format: "json", filters: []string{"projects= "}}, `--filter "projects= ": the value is empty; want projects=VALUE`},
		{fetchOptions{format: "json", filters: []string{"dates=someday"}}, `date "someday": not a date expression`},
	}
	for _, tt := range bad {
		t.Run(tt.want, func(t *testing.T) {
			_, err := fetchRequest(tt.opts, now)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			var ee *exitError
			require.True(t, errors.As(err, &ee))
			assert.Equal(t, exitUsage, ee.Code)
		})
	}
}

// inProcess serves named sdk.Sources in-process, standing in for the
// plugin manager.
type inProcess map[string]sdk.Source

func (p inProcess) Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error {
	s, ok := p[source]
	if !ok {
		return fmt.Errorf("no source %q", source)
	}
	return s.Fetch(ctx, req, emit)
}

func configuredSource(t *testing.T, s sdk.Source, cfg map[string]any) sdk.Source {
	t.Helper()
	raw, err := json.Marshal(cfg)
	require.NoError(t, err)
	diags, err := s.Configure(context.Background(), raw)
	require.NoError(t, err)
	require.False(t, diags.HasErrors(), "%+v", diags)
	return s
}

func TestPrintFetchFormats(t *testing.T) {
	issues := configuredSource(t, file.New(), map[string]any{"path": "../../examples/data/issues.jsonl"})
	sources := inProcess{"youtrack": issues}
	req := sdk.FetchRequest{Filters: map[string][]string{"projects": {"OPS"}, "statuses": {"open"}}}

	var want []sdk.Record
	require.NoError(t, issues.Fetch(context.Background(), req, func(r sdk.Record) error { want = append(want, r); return nil }))
	require.NotEmpty(t, want)

	print := func(format string) (string, string, error) {
		var out, errOut bytes.Buffer
		a := &app{stdout: &out, stderr: &errOut}
		err := a.printFetch(context.Background(), sources, "youtrack", req, format)
		return out.String(), errOut.String(), err
	}

	t.Run("jsonl", func(t *testing.T) {
		out, _, err := print("jsonl")
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.Len(t, lines, len(want))
		for i, line := range lines {
			var r sdk.Record
			require.NoError(t, json.Unmarshal([]byte(line), &r))
			assert.Equal(t, want[i].ID, r.ID)
			assert.Equal(t, want[i].Title, r.Title)
		}
	})
	t.Run("json", func(t *testing.T) {
		out, _, err := print("json")
		require.NoError(t, err)
		var got []sdk.Record
		require.NoError(t, json.Unmarshal([]byte(out), &got))
		require.Len(t, got, len(want))
		assert.Equal(t, want[0].ID, got[0].ID)
	})
	t.Run("text", func(t *testing.T) {
		out, stderr, err := print("text")
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		require.Len(t, lines, len(want)+1)
		assert.Regexp(t, `^ID\s+TIME\s+SOURCE\s+KIND\s+AUTHOR\s+TITLE$`, lines[0])
		for i, r := range want {
			assert.Contains(t, lines[i+1], r.ID)
			assert.Contains(t, lines[i+1], r.Title)
			assert.Contains(t, lines[i+1], r.Time.Format("2006-01-02 15:04"))
		}
		assert.Equal(t, fmt.Sprintf("%d record(s) from youtrack\n", len(want)), stderr)
	})
	t.Run("empty text prints no table", func(t *testing.T) {
		var out, errOut bytes.Buffer
		a := &app{stdout: &out, stderr: &errOut}
		err := a.printFetch(context.Background(), sources, "youtrack", sdk.FetchRequest{Filters: map[string][]string{"projects": {"NONE"}}}, "text")
		require.NoError(t, err)
		assert.Empty(t, out.String())
		assert.Equal(t, "0 record(s) from youtrack\n", errOut.String())
	})
	t.Run("empty json is an empty array", func(t *testing.T) {
		var out bytes.Buffer
		a := &app{stdout: &out, stderr: &bytes.Buffer{}}
		err := a.printFetch(context.Background(), sources, "youtrack", sdk.FetchRequest{Filters: map[string][]string{"projects": {"NONE"}}}, "json")
		require.NoError(t, err)
		assert.Equal(t, "[]\n", out.String())
	})
}

func TestPrintFetchErrors(t *testing.T) {
	repo := gitRepo(t)
	sources := inProcess{"repo": configuredSource(t, git.New(), map[string]any{"path": repo})}
	tests := []struct {
		name string
		req  sdk.FetchRequest
		code int
		want string
	}{
		{"unknown ref exits 1", sdk.FetchRequest{Filters: map[string][]string{"ref": {"nope"}}}, exitFindings, `fetch repo: git: unknown ref "nope"`},
		{"bad filter value exits 2", sdk.FetchRequest{Filters: map[string][]string{"with_stats": {"maybe"}}}, exitUsage, `with_stats="maybe"`},
		{"wrong kind exits 2", sdk.FetchRequest{Kind: "issue"}, exitUsage, `not "issue"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &app{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
			err := a.printFetch(context.Background(), sources, "repo", tt.req, "jsonl")
			var ee *exitError
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.Equal(t, tt.code, ee.Code)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// gitRepo makes a repository with three commits in January 2024 touching
// two directories, committed by the git CLI with fixed dates.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	gitCmd := func(date string, args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=Alice Chen", "GIT_AUTHOR_EMAIL=alice@example.com",
			"GIT_COMMITTER_NAME=Alice Chen", "GIT_COMMITTER_EMAIL=alice@example.com",
			"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	gitCmd("", "init", "-q", "-b", "main")
	for i, c := range []struct{ date, path, msg string }{
		{"2024-01-05T10:00:00Z", "api/server.go", "add the api server"},
		{"2024-01-15T10:00:00Z", "web/app.js", "add the web app"},
		{"2024-02-02T10:00:00Z", "api/server.go", "api: health checks"},
	} {
		p := filepath.Join(dir, c.path)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(fmt.Sprintf("revision %d\n", i)), 0o644))
		gitCmd(c.date, "add", ".")
		gitCmd(c.date, "commit", "-q", "-m", c.msg)
	}
	return dir
}

// TestFetchEndToEnd runs `nous fetch` on rules naming the built-in git and
// file sources, each served by a real plugin subprocess.
func TestFetchEndToEnd(t *testing.T) {
	repo := gitRepo(t)
	issues, err := filepath.Abs("../../examples/data/issues.jsonl")
	require.NoError(t, err)
	rulesPath := writeRules(t, t.TempDir(), fmt.Sprintf(`
nous {
  version = 1
}
source "repo" {
  plugin = "builtin:git"
  config = { path = %q }
}
source "tracker" {
  plugin = "builtin:file"
  config = { path = %q }
}
`, repo, issues))

	t.Run("git with dates and path", func(t *testing.T) {
		code, out, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", "repo",
			"--filter", "dates=2024-01-01..2024-01-31", "--filter", "path=api", "--filter", "path=web", "--format", "jsonl")
		require.Equal(t, exitOK, code, stderr)
		var titles []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var r sdk.Record
			require.NoError(t, json.Unmarshal([]byte(line), &r))
			assert.Equal(t, sdk.KindCommit, r.Kind)
			assert.Equal(t, "Alice Chen", r.Author)
			titles = append(titles, r.Title)
		}
		assert.Equal(t, []string{"add the web app", "add the api server"}, titles)
	})
	t.Run("file with filters and limit", func(t *testing.T) {
		code, out, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", "tracker",
			"--filter", "projects=PAY", "--filter", "statuses=open", "--limit", "2", "--format", "json")
		require.Equal(t, exitOK, code, stderr)
		var recs []sdk.Record
		require.NoError(t, json.Unmarshal([]byte(out), &recs))
		require.Len(t, recs, 2)
		for _, r := range recs {
			assert.Equal(t, "PAY", r.Fields["project"])
			assert.Equal(t, "open", r.Fields["status"])
		}
	})
	t.Run("text", func(t *testing.T) {
		code, out, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", "repo", "--limit", "1")
		require.Equal(t, exitOK, code, stderr)
		assert.Contains(t, out, "api: health checks")
		assert.Contains(t, stderr, "1 record(s) from repo")
	})
	t.Run("unknown source lists the rules' sources", func(t *testing.T) {
		code, _, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", "gitlab")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, stderr, `unknown source "gitlab"; the rules define: repo, tracker`)
	})
	t.Run("bad date names the value", func(t *testing.T) {
		code, _, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", "repo", "--filter", "dates=the other day")
		assert.Equal(t, exitUsage, code)
		assert.Contains(t, stderr, `date "the other day"`)
	})
	t.Run("source failure exits 1", func(t *testing.T) {
		code, _, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", "repo", "--filter", "ref=no-such-branch")
		assert.Equal(t, exitFindings, code)
		assert.Contains(t, stderr, `unknown ref "no-such-branch"`)
	})
}

// TestFetchNeverPrintsTheToken points the built-in gitlab source at a fake
// GitLab that rejects the token and checks that the token appears nowhere.
func TestFetchNeverPrintsTheToken(t *testing.T) {
	const token = "glpat-FetchTestSecret-9f8e7d"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"message":"401 Unauthorized","token":%q}`, r.Header.Get("PRIVATE-TOKEN"))
	}))
	defer srv.Close()
	t.Setenv("FETCH_TEST_GITLAB_TOKEN", token)
	rulesPath := writeRules(t, t.TempDir(), fmt.Sprintf(`
nous {
  version = 1
}
source "gitlab" {
  plugin = "builtin:gitlab"
  config = {
    base_url = %q
    token    = env("FETCH_TEST_GITLAB_TOKEN")
  }
}
`, srv.URL))
	for _, format := range []string{"text", "json", "jsonl"} {
		code, out, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", "gitlab", "--filter", "projects=acme/shop", "--kind", "commit", "--format", format)
		assert.Equal(t, exitFindings, code, stderr)
		assert.NotContains(t, out, token)
		assert.NotContains(t, stderr, token)
		assert.NotContains(t, stderr, "FetchTestSecret")
		assert.Contains(t, stderr, "fetch gitlab")
		assert.Regexp(t, `(?i)401|unauthori[sz]ed`, stderr, "the failure is the rejected token")
	}
}

// TestFetchMasksSecretsInRecords fetches a file that quotes a token the CLI
// knows as secret: every output format shows it masked, as ask would.
func TestFetchMasksSecretsInRecords(t *testing.T) {
	const token = "glpat-InARecord-0a1b2c3d"
	t.Setenv("GITLAB_TOKEN", token)
	dir := t.TempDir()
	data := filepath.Join(dir, "notes.jsonl")
	require.NoError(t, os.WriteFile(data, []byte(`{"id": "N-1", "kind": "document", "title": "setup", "body": "export GITLAB_TOKEN=`+token+`"}`+"\n"), 0o600))
	rulesPath := writeRules(t, dir, fmt.Sprintf(`
nous {
  version = 1
}
source "notes" {
  plugin = "builtin:file"
  config = { path = %q }
}
`, data))
	for _, format := range []string{"text", "json", "jsonl"} {
		code, out, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", "notes", "--format", format)
		require.Equal(t, exitOK, code, stderr)
		assert.NotContains(t, out, token, format)
		if format != "text" { // the text table shows no body
			assert.Contains(t, out, "export GITLAB_TOKEN=[REDACTED]", format)
		}
	}
}

// silentServer reads every request and never answers it: a host that
// holds every request open.
func silentServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestFetchTimeout: `nous fetch gitlab` against a server that accepts and
// never answers stops at --timeout with a message naming it.
func TestFetchTimeout(t *testing.T) {
	rulesPath := writeRules(t, t.TempDir(), fmt.Sprintf(`
nous {
  version = 1
}
source "gitlab" {
  plugin = "builtin:gitlab"
  config = {
    base_url = %q
    token    = "glpat-timeout-test"
  }
}
`, silentServer(t)))
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		defer close(done)
		code, _, stderr = runCLI(t, "", "--rules", rulesPath, "fetch", "gitlab",
			"--filter", "projects=acme/shop", "--kind", "commit", "--timeout", "1500ms")
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // a bound on the failure only, not a timing assertion
		t.Fatal("nous fetch is still waiting on a server that never answers")
	}
	assert.Equal(t, exitFindings, code, stderr)
	assert.Contains(t, stderr, "fetch gitlab: no result within --timeout 1.5s")
	assert.NotContains(t, stderr, "glpat-timeout-test")
}

func TestFetchTimeoutFlag(t *testing.T) {
	rulesPath := writeRules(t, t.TempDir(), "nous {\n  version = 1\n}\n")
	code, _, stderr := runCLI(t, "", "--rules", rulesPath, "fetch", "x", "--timeout", "-1s")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--timeout: want a duration of 0 (none) or more, got -1s")
}
