package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitlabIssue is an issue as GET /projects/:id/issues returns it
// (https://docs.gitlab.com/api/issues/#list-project-issues), trimmed to
// what the gitlab source reads.
type gitlabIssue struct {
	ID        int64     `json:"id"`
	IID       int64     `json:"iid"`
	ProjectID int64     `json:"project_id"`
	Title     string    `json:"title"`
	State     string    `json:"state"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	Labels    []string  `json:"labels"`
	Author    struct {
		Username string `json:"username"`
	} `json:"author"`
	WebURL     string `json:"web_url"`
	References struct {
		Full string `json:"full"`
	} `json:"references"`
}

// fakeGitLab serves one project's issues (and no commits) the way GitLab's
// REST v4 API does: PRIVATE-TOKEN auth, the project path URL-encoded,
// state=opened|closed, offset pages with X-Next-Page. It records the
// resources asked for.
type fakeGitLab struct {
	token, project string
	issues         []gitlabIssue

	mu    sync.Mutex
	asked []string
}

func (g *fakeGitLab) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("PRIVATE-TOKEN") != g.token {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"message":"401 Unauthorized"}`))
		return
	}
	prefix := "/api/v4/projects/" + strings.ReplaceAll(g.project, "/", "%2F") + "/"
	resource, ok := strings.CutPrefix(r.URL.EscapedPath(), prefix)
	if !ok || resource == "" {
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"404 Project Not Found"}`))
		return
	}
	g.mu.Lock()
	g.asked = append(g.asked, resource)
	g.mu.Unlock()
	var items any = []struct{}{}
	switch resource {
	case "issues":
		var out []gitlabIssue
		for _, i := range g.issues {
			if s := r.URL.Query().Get("state"); s == "" || s == "all" || s == i.State {
				out = append(out, i)
			}
		}
		items = out
	case "repository/commits":
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":"404 Not Found"}`))
		return
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	w.Header().Set("X-Page", strconv.Itoa(max(page, 1)))
	w.Header().Set("X-Per-Page", r.URL.Query().Get("per_page"))
	w.Header().Set("X-Next-Page", "")
	_ = json.NewEncoder(w).Encode(items)
}

func (g *fakeGitLab) resources() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.asked...)
}

func TestDefaultsWithGitLabAnswerIssueQuestionsFromGitLabIssues(t *testing.T) {
	withoutTokens(t)
	inRepo(t, map[string]string{"Fix refund rounding": "2026-11-03T10:00:00Z"})
	g := &fakeGitLab{token: "glpat-fake-token-1234", project: "group/app"}
	for i, tt := range []struct{ title, state string }{
		{"Checkout times out on slow networks", "opened"},
		{"Refund webhook retried forever", "opened"},
		{"Typo on the pricing page", "closed"},
	} {
		iss := gitlabIssue{ID: int64(100 + i), IID: int64(i + 1), ProjectID: 7, Title: tt.title, State: tt.state,
			CreatedAt: time.Date(2026, 11, 1+i, 9, 0, 0, 0, time.UTC), UpdatedAt: time.Date(2026, 11, 2+i, 9, 0, 0, 0, time.UTC),
			Labels: []string{"bug"}, WebURL: fmt.Sprintf("https://gitlab.example.com/group/app/-/issues/%d", i+1)}
		iss.Author.Username = "alice"
		iss.References.Full = fmt.Sprintf("group/app#%d", i+1)
		g.issues = append(g.issues, iss)
	}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	t.Setenv("GITLAB_TOKEN", g.token)
	t.Setenv("GITLAB_URL", srv.URL)

	out, stderr, code := runAsk(t, "--format", "json", "how many open bugs are there in group/app?")
	require.Equal(t, 0, code, stderr)
	var doc report.Document
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, runner.ResultSuccess, doc.Result.Status, doc.Result.Error)
	h0 := doc.Result.Steps[0]
	assert.Equal(t, "Retrieve issue data from YouTrack", h0.Description, "plans keep the seed documents' names")
	assert.Equal(t, engine.StatusCompleted, h0.Status)
	assert.Equal(t, 2, h0.Records, "the open status reached GitLab: the closed issue is left out")
	var titles []string
	for _, r := range doc.Result.Records {
		if r.Kind == "issue" {
			assert.Equal(t, "gitlab", r.Source)
			titles = append(titles, r.Title)
		}
	}
	assert.ElementsMatch(t, []string{"Checkout times out on slow networks", "Refund webhook retried forever", "Typo on the pricing page"}, titles,
		"the analytics step counts every issue")
	assert.Contains(t, doc.Result.Report, "group/app#1")
	assert.NotContains(t, out, "is not configured")
	assert.NotRegexp(t, exampleIssueKey, out+stderr)
	assert.NotContains(t, out+stderr, g.token)
	assert.Contains(t, g.resources(), "issues", "the youtrack source asked GitLab for issues")
}
