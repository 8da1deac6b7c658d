package gitlab

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

func TestGround(t *testing.T) {
	h := newHarness(t, map[string]any{"projects": []string{"group/sub/app"}})
	p := h.fake.Project
	tag := p.Tags[1]
	// The branch heads, computed from the fake's data: the newest commit on each.
	head := func(ref string) fakes.GitLabCommit {
		for _, c := range p.Commits {
			for _, r := range c.Refs {
				if r == ref {
					return c
				}
			}
		}
		t.Fatalf("no commit on %s", ref)
		return fakes.GitLabCommit{}
	}
	release := head("release")

	resp := plugintest.Ground(t, h.source,
		sdk.Term{Kind: sdk.TermProject, Value: "group/sub/app"},
		sdk.Term{Kind: sdk.TermProject, Value: "42"},
		sdk.Term{Kind: sdk.TermProject, Value: "group/other"},
		sdk.Term{Kind: sdk.TermRef, Value: tag.Name},
		sdk.Term{Kind: sdk.TermRef, Value: "release"},
		sdk.Term{Kind: sdk.TermRef, Value: "v9.9.9"},
		sdk.Term{Kind: sdk.TermAuthor, Value: "alice"},
	)
	want := []sdk.GroundedTerm{
		{Kind: sdk.TermProject, Value: "group/sub/app", Known: true, Canonical: []string{"group/sub/app"}},
		{Kind: sdk.TermProject, Value: "42", Known: true, Canonical: []string{"group/sub/app"}},
		{Kind: sdk.TermProject, Value: "group/other", Note: "no GitLab project at this path or ID that the token can see"},
		{Kind: sdk.TermRef, Value: tag.Name, Known: true, Canonical: []string{tag.Name}, ID: tag.Commit.ID, Time: tag.Commit.CommittedDate, Note: "a tag of group/sub/app"},
		{Kind: sdk.TermRef, Value: "release", Known: true, Canonical: []string{"release"}, ID: release.ID, Time: release.CommittedDate, Note: "a branch of group/sub/app"},
		{Kind: sdk.TermRef, Value: "v9.9.9", Note: "no tag or branch of this name in group/sub/app"},
		{Kind: sdk.TermAuthor, Value: "alice", Note: "the gitlab source grounds project and ref terms only"},
	}
	require.Len(t, resp.Terms, len(want))
	for i := range want {
		assert.True(t, want[i].Time.Equal(resp.Terms[i].Time), "%s: time %v, want %v", want[i].Value, resp.Terms[i].Time, want[i].Time)
		resp.Terms[i].Time = want[i].Time
		assert.Equal(t, want[i], resp.Terms[i])
	}
	assert.Equal(t, Filters, resp.Filters)
	assert.Equal(t, "group/sub/app", resp.Coverage.Name)

	// The project path and the ref travel URL-encoded, as the API requires
	// (the client also encodes dots, which GitLab would read as a format).
	assert.Contains(t, h.fake.Requests(), "/api/v4/projects/group%2Fsub%2Fapp")
	assert.Contains(t, h.fake.Requests(), "/api/v4/projects/group%2Fsub%2Fapp/repository/tags/"+strings.ReplaceAll(tag.Name, ".", "%2E"))
}

func TestGroundRefWithoutProjects(t *testing.T) {
	h := newHarness(t, nil)
	resp := plugintest.Ground(t, h.source, sdk.Term{Kind: sdk.TermRef, Value: "v1.0.0"})
	assert.False(t, resp.Terms[0].Known)
	assert.Contains(t, resp.Terms[0].Note, "no default projects")
	assert.Empty(t, h.fake.Requests())
}

func TestGroundFailures(t *testing.T) {
	tests := []struct {
		name  string
		fault fakes.Fault
		kind  error
		want  string
	}{
		{"token rejected", fakes.Fault{PathContains: "/projects/", Times: 1, Status: http.StatusUnauthorized, Body: `{"message":"401 Unauthorized"}`}, sdk.ErrUnauthorized, "token rejected"},
		{"server down", fakes.Fault{PathContains: "/projects/", Times: 100, Status: http.StatusBadGateway, Body: "bad gateway"}, sdk.ErrUnavailable, "gitlab: project"},
		{"rate limited", fakes.Fault{PathContains: "/projects/", Times: 100, Status: http.StatusTooManyRequests, Body: `{"message":"Retry later"}`}, sdk.ErrRateLimited, "rate limited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, map[string]any{"projects": []string{"group/sub/app"}})
			h.fake.Fail(tt.fault)
			_, err := sdktest.Ground(context.Background(), sdktest.Source(t, h.source), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermProject, Value: "group/sub/app"}}})
			require.ErrorIs(t, err, tt.kind)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), testToken)
		})
	}
}

func TestGroundRetriesThenAnswers(t *testing.T) {
	h := newHarness(t, map[string]any{"projects": []string{"group/sub/app"}})
	h.fake.Fail(fakes.Fault{PathContains: "/repository/tags/", Times: 2, Status: http.StatusServiceUnavailable, Body: "try again"})
	resp := plugintest.Ground(t, h.source, sdk.Term{Kind: sdk.TermRef, Value: h.fake.Project.Tags[0].Name})
	assert.True(t, resp.Terms[0].Known)
	assert.Len(t, h.waits.Recorded(), 2)
	assert.Equal(t, 3, strings.Count(strings.Join(h.fake.Requests(), "\n"), "/repository/tags/"))
}

func TestGroundBeforeConfigure(t *testing.T) {
	_, err := New().Ground(context.Background(), sdk.GroundRequest{Terms: []sdk.Term{{Kind: sdk.TermProject, Value: "x"}}})
	assert.ErrorIs(t, err, sdk.ErrBadConfig)
}
