package fakes

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// GitLabTag is a tag as GET /projects/:id/repository/tags/:tag_name
// returns it: its commit in full, the annotation and the release, if any.
type GitLabTag struct {
	Name      string       `json:"name"`
	Message   string       `json:"message"`
	Target    string       `json:"target"`
	Commit    GitLabCommit `json:"commit"`
	Release   any          `json:"release"`
	Protected bool         `json:"protected"`
	CreatedAt *time.Time   `json:"created_at"`
}

// gitlabBranch is a branch as GET /projects/:id/repository/branches/:branch
// returns it.
type gitlabBranch struct {
	Name               string       `json:"name"`
	Merged             bool         `json:"merged"`
	Protected          bool         `json:"protected"`
	Default            bool         `json:"default"`
	DevelopersCanPush  bool         `json:"developers_can_push"`
	DevelopersCanMerge bool         `json:"developers_can_merge"`
	CanPush            bool         `json:"can_push"`
	WebURL             string       `json:"web_url"`
	Commit             GitLabCommit `json:"commit"`
}

// gitlabProjectJSON is the part of GET /projects/:id's answer clients read.
type gitlabProjectJSON struct {
	ID                int64     `json:"id"`
	Name              string    `json:"name"`
	Path              string    `json:"path"`
	PathWithNamespace string    `json:"path_with_namespace"`
	NameWithNamespace string    `json:"name_with_namespace"`
	DefaultBranch     string    `json:"default_branch"`
	WebURL            string    `json:"web_url"`
	CreatedAt         time.Time `json:"created_at"`
	LastActivityAt    time.Time `json:"last_activity_at"`
}

// generateTags tags every 50th commit from the oldest: v1.0.0, v1.1.0, …,
// annotated with a release note, as a release process would.
func generateTags(commits []GitLabCommit) []GitLabTag {
	var tags []GitLabTag
	minor := 0
	for i := len(commits) - 1; i >= 0; i -= 50 {
		c := commits[i]
		c.Stats = nil
		name := "v1." + strconv.Itoa(minor) + ".0"
		at := c.CommittedDate.Add(10 * time.Minute)
		tags = append(tags, GitLabTag{Name: name, Message: "Release " + name, Target: fakeSHA("tag", minor), Commit: c, CreatedAt: &at})
		minor++
	}
	return tags
}

// serveProject answers GET /projects/:id.
func (g *GitLab) serveProject(w http.ResponseWriter) {
	p := g.Project
	name := p.Path[strings.LastIndexByte(p.Path, '/')+1:]
	out := gitlabProjectJSON{
		ID: p.ID, Name: name, Path: name, PathWithNamespace: p.Path,
		NameWithNamespace: strings.ReplaceAll(p.Path, "/", " / "), DefaultBranch: "main",
		WebURL: "https://gitlab.example.com/" + p.Path,
	}
	if n := len(p.Commits); n > 0 {
		out.CreatedAt, out.LastActivityAt = p.Commits[n-1].CreatedAt, p.Commits[0].CreatedAt
	}
	writeJSON(w, out)
}

// serveRef answers GET repository/tags/:tag_name and
// repository/branches/:branch (names URL-encoded, as "release%2F1.0"), and
// reports whether resource was one of them.
func (g *GitLab) serveRef(w http.ResponseWriter, resource string) bool {
	if rawName, ok := strings.CutPrefix(resource, "repository/tags/"); ok {
		name, err := url.PathUnescape(rawName)
		i := slices.IndexFunc(g.Project.Tags, func(t GitLabTag) bool { return t.Name == name })
		if err != nil || i < 0 {
			gitlabError(w, http.StatusNotFound, `{"message":"404 Tag Not Found"}`)
			return true
		}
		writeJSON(w, g.Project.Tags[i])
		return true
	}
	if rawName, ok := strings.CutPrefix(resource, "repository/branches/"); ok {
		name, err := url.PathUnescape(rawName)
		// A branch's head is the newest commit on it.
		i := slices.IndexFunc(g.Project.Commits, func(c GitLabCommit) bool { return slices.Contains(c.Refs, name) })
		if err != nil || i < 0 {
			gitlabError(w, http.StatusNotFound, `{"message":"404 Branch Not Found"}`)
			return true
		}
		c := g.Project.Commits[i]
		c.Stats = nil
		writeJSON(w, gitlabBranch{
			Name: name, Default: name == "main", Protected: name == "main", CanPush: true,
			WebURL: "https://gitlab.example.com/" + g.Project.Path + "/-/tree/" + name, Commit: c,
		})
		return true
	}
	return false
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
