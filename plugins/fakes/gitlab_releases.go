package fakes

import (
	"cmp"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strings"
	"time"
)

// GitLabRelease is a release as GET /projects/:id/releases returns it
// (https://docs.gitlab.com/api/releases/#list-releases). UpcomingRelease
// is computed when served: released_at still in the future.
type GitLabRelease struct {
	TagName         string                `json:"tag_name"`
	Description     string                `json:"description"`
	DescriptionHTML string                `json:"description_html,omitempty"` // only with include_html_description=true
	Name            string                `json:"name"`
	CreatedAt       time.Time             `json:"created_at"`
	ReleasedAt      time.Time             `json:"released_at"`
	UpcomingRelease bool                  `json:"upcoming_release"`
	Author          GitLabUser            `json:"author"`
	Commit          GitLabCommit          `json:"commit"`
	Milestones      []GitLabMilestone     `json:"milestones,omitempty"`
	CommitPath      string                `json:"commit_path"`
	TagPath         string                `json:"tag_path"`
	Assets          GitLabReleaseAssets   `json:"assets"`
	Evidences       []GitLabEvidence      `json:"evidences"`
	Links           GitLabReleaseLinkURLs `json:"_links"`
}

// GitLabMilestone is the milestone shape embedded in releases.
type GitLabMilestone struct {
	ID        int64     `json:"id"`
	IID       int64     `json:"iid"`
	ProjectID int64     `json:"project_id"`
	Title     string    `json:"title"`
	State     string    `json:"state"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	WebURL    string    `json:"web_url"`
}

// GitLabReleaseAssets are a release's source archives and asset links.
type GitLabReleaseAssets struct {
	Count   int                   `json:"count"`
	Sources []GitLabReleaseSource `json:"sources"`
	Links   []any                 `json:"links"`
}

// GitLabReleaseSource is one generated source archive of a release.
type GitLabReleaseSource struct {
	Format string `json:"format"`
	URL    string `json:"url"`
}

// GitLabEvidence is a release's evidence snapshot.
type GitLabEvidence struct {
	SHA         string    `json:"sha"`
	Filepath    string    `json:"filepath"`
	CollectedAt time.Time `json:"collected_at"`
}

// GitLabReleaseLinkURLs is a release's _links object.
type GitLabReleaseLinkURLs struct {
	ClosedIssuesURL        string `json:"closed_issues_url"`
	ClosedMergeRequestsURL string `json:"closed_merge_requests_url"`
	EditURL                string `json:"edit_url"`
	MergedMergeRequestsURL string `json:"merged_merge_requests_url"`
	OpenedIssuesURL        string `json:"opened_issues_url"`
	OpenedMergeRequestsURL string `json:"opened_merge_requests_url"`
	Self                   string `json:"self"`
}

// GitLabUpcomingRelease is when the generated upcoming release is due: far
// enough ahead that the fake serves it as upcoming_release for years.
var GitLabUpcomingRelease = time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)

// GenerateGitLabReleases builds n releases of p, newest first: the first
// is upcoming (released_at GitLabUpcomingRelease), release i > 0 was
// released 2 days before release i-1, from 2024-03-31 12:00 UTC; every
// third has a milestone and every fifth no name (GitLab then shows the tag).
func GenerateGitLabReleases(p GitLabProject, n int) []GitLabRelease {
	web := "https://gitlab.example.com/" + p.Path
	start := time.Date(2024, 3, 31, 12, 0, 0, 0, time.UTC)
	out := make([]GitLabRelease, 0, n)
	for i := range n {
		tag := fmt.Sprintf("v2.%d.0", n-1-i)
		released := start.Add(-time.Duration(i-1) * 48 * time.Hour)
		created := released.Add(-time.Hour)
		if i == 0 {
			released, created = GitLabUpcomingRelease, start // announced after the last release
		}
		var c GitLabCommit
		if len(p.Commits) > 0 {
			c = p.Commits[i%len(p.Commits)]
			c.Stats = nil
		}
		archive := fmt.Sprintf("%s/-/archive/%s/%s-%s", web, tag, p.Path[strings.LastIndexByte(p.Path, '/')+1:], tag)
		rel := GitLabRelease{
			TagName: tag, Name: "Release " + tag,
			Description: fmt.Sprintf("## Changelog\n\n- %s fixes in %s\n", []string{"payments", "auth", "search", "docs"}[i%4], tag),
			CreatedAt:   created, ReleasedAt: released,
			Author: gitlabPeople[i%len(gitlabPeople)], Commit: c,
			CommitPath: "/" + p.Path + "/-/commit/" + c.ID, TagPath: "/" + p.Path + "/-/tags/" + tag,
			Assets: GitLabReleaseAssets{Count: 4, Links: []any{}, Sources: []GitLabReleaseSource{
				{"zip", archive + ".zip"}, {"tar.gz", archive + ".tar.gz"}, {"tar.bz2", archive + ".tar.bz2"}, {"tar", archive + ".tar"}}},
			Evidences: []GitLabEvidence{{SHA: fakeSHA("evidence", i), Filepath: web + "/-/releases/" + tag + "/evidences/1.json", CollectedAt: released}},
			Links: GitLabReleaseLinkURLs{
				ClosedIssuesURL:        web + "/-/issues?release_tag=" + tag + "&scope=all&state=closed",
				ClosedMergeRequestsURL: web + "/-/merge_requests?release_tag=" + tag + "&scope=all&state=closed",
				EditURL:                web + "/-/releases/" + tag + "/edit",
				MergedMergeRequestsURL: web + "/-/merge_requests?release_tag=" + tag + "&scope=all&state=merged",
				OpenedIssuesURL:        web + "/-/issues?release_tag=" + tag + "&scope=all&state=opened",
				OpenedMergeRequestsURL: web + "/-/merge_requests?release_tag=" + tag + "&scope=all&state=opened",
				Self:                   web + "/-/releases/" + tag,
			},
		}
		if i%5 == 4 {
			rel.Name = ""
		}
		if i%3 == 0 {
			rel.Milestones = []GitLabMilestone{{ID: int64(300 + i), IID: int64(i + 1), ProjectID: p.ID, Title: "M" + tag,
				State: "closed", CreatedAt: rel.CreatedAt, UpdatedAt: rel.CreatedAt, WebURL: web + "/-/milestones/" + fmt.Sprint(i+1)}}
		}
		out = append(out, rel)
	}
	return out
}

// serveReleases answers GET /projects/:id/releases: ordered by order_by
// (released_at, the default, or created_at) and sort (desc, the default,
// or asc), offset-paged with X-Total, description_html only on request.
func (g *GitLab) serveReleases(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	orderBy, sort := cmp.Or(q.Get("order_by"), "released_at"), cmp.Or(q.Get("sort"), "desc")
	if orderBy != "released_at" && orderBy != "created_at" {
		gitlabError(w, http.StatusBadRequest, `{"error":"order_by does not have a valid value"}`)
		return
	}
	if sort != "desc" && sort != "asc" {
		gitlabError(w, http.StatusBadRequest, `{"error":"sort does not have a valid value"}`)
		return
	}
	releases := slices.Clone(g.Project.Releases)
	key := func(rel GitLabRelease) time.Time {
		if orderBy == "created_at" {
			return rel.CreatedAt
		}
		return rel.ReleasedAt
	}
	slices.SortStableFunc(releases, func(a, b GitLabRelease) int {
		if sort == "asc" {
			return key(a).Compare(key(b))
		}
		return key(b).Compare(key(a))
	})
	now, withHTML := time.Now(), q.Get("include_html_description") == "true"
	for i := range releases {
		rel := &releases[i]
		rel.UpcomingRelease = rel.ReleasedAt.After(now)
		if withHTML {
			rel.DescriptionHTML = "<p>" + html.EscapeString(rel.Description) + "</p>"
		}
	}
	page(w, r, releases, true)
}
