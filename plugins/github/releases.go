package github

import (
	"context"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/sdk"
)

// fetchReleases lists a repository's releases, newest first; the date
// range (on the published time, a draft's created time), authors and
// "latest" are applied here, since the API has no filters.
func (r *fetchRun) fetchReleases(ctx context.Context, sc scope) error {
	owner, name, _ := splitRepo(sc.repo)
	list := func(ctx context.Context, lo gh.ListOptions) ([]*gh.RepositoryRelease, *gh.Response, error) {
		return r.client.Repositories.ListReleases(ctx, owner, name, &lo)
	}
	return paginate(ctx, r, sc.repo, list, func(rel *gh.RepositoryRelease) error {
		if rel == nil || rel.GetTagName() == "" {
			return nil
		}
		rec := releaseRecord(rel, sc.repo)
		if r.q.window(rec.Time) != 0 || !r.q.keepAuthor(rec.Author) {
			return nil // releases come by creation; a late publication may still follow
		}
		if r.q.latest {
			// GitHub's latest: the newest that is neither a draft nor a prerelease.
			if rel.GetDraft() || rel.GetPrerelease() {
				return nil
			}
			if err := r.out(rec); err != nil {
				return err
			}
			return errDone
		}
		return r.out(rec)
	})
}

// releaseState is draft, prerelease or published.
func releaseState(rel *gh.RepositoryRelease) string {
	switch {
	case rel.GetDraft():
		return "draft"
	case rel.GetPrerelease():
		return "prerelease"
	}
	return "published"
}

func releaseRecord(rel *gh.RepositoryRelease, repo string) sdk.Record {
	fields := map[string]any{
		"repo":       repo,
		"tag":        rel.GetTagName(),
		"state":      releaseState(rel),
		"draft":      rel.GetDraft(),
		"prerelease": rel.GetPrerelease(),
	}
	if t := rel.GetTargetCommitish(); t != "" {
		fields["target"] = t
	}
	setTimes(fields, map[string]*gh.Timestamp{"created_at": rel.CreatedAt, "published_at": rel.PublishedAt})
	title := rel.GetName()
	if title == "" {
		title = rel.GetTagName()
	}
	return sdk.Record{
		ID:     repo + "@" + rel.GetTagName(),
		Source: "github",
		Kind:   sdk.KindRelease,
		Title:  title,
		Body:   rel.GetBody(),
		URL:    rel.GetHTMLURL(),
		Author: rel.GetAuthor().GetLogin(),
		Time:   recordTime("updated", rel.CreatedAt, rel.PublishedAt),
		Fields: fields,
	}
}
