package gitlab

import (
	"context"
	"errors"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/sdk"
)

// errListed ends one release listing: released_at has passed since, or the latest is found.
var errListed = errors.New("release listing done")

// fetchReleases lists a project's releases, newest released_at first. The
// API has no date or author filters, so since ends the listing, and until,
// authors and "latest" (the newest not upcoming) are applied here.
func (r *fetchRun) fetchReleases(ctx context.Context, sc scope, pageSize int) error {
	q := r.q
	opt := &gl.ListReleasesOptions{OrderBy: ptr("released_at"), Sort: ptr("desc")}
	list := func(lo gl.ListOptions, ro ...gl.RequestOptionFunc) ([]*gl.Release, *gl.Response, error) {
		o := *opt
		o.ListOptions = lo
		return r.client.Releases.ListReleases(sc.project, &o, ro...)
	}
	err := paginate(ctx, r.policy, sc.project, pageSize, list, func(rel *gl.Release) error {
		if rel == nil || rel.TagName == "" {
			return nil
		}
		rec := releaseRecord(rel, sc.project)
		switch {
		case !q.since.IsZero() && rec.Time.Before(q.since):
			return errListed
		case !q.until.IsZero() && rec.Time.After(q.until), !q.keepAuthor(rec.Author):
			return nil
		case q.latest && rel.UpcomingRelease:
			return nil // the latest is released already
		}
		if err := r.out(rec); err != nil || !q.latest {
			return err
		}
		return errListed // the latest is the first one released
	})
	if errors.Is(err, errListed) {
		return nil
	}
	return err
}

// releaseRecord has the shape of the github source's release records: ID
// project@tag, Title the name (else the tag), Time when it was released.
func releaseRecord(rel *gl.Release, project string) sdk.Record {
	fields := map[string]any{
		"project":          project,
		"tag":              rel.TagName,
		"sha":              rel.Commit.ID,
		"upcoming_release": rel.UpcomingRelease,
		"state":            map[bool]string{true: "upcoming", false: "released"}[rel.UpcomingRelease],
	}
	if rel.CreatedAt != nil {
		fields["created_at"] = rel.CreatedAt.UTC()
	}
	if rel.ReleasedAt != nil {
		fields["released_at"] = rel.ReleasedAt.UTC()
	}
	var milestones []string
	for _, m := range rel.Milestones {
		if m != nil {
			milestones = append(milestones, m.Title)
		}
	}
	fields["milestones"] = milestones
	title := rel.Name
	if title == "" {
		title = rel.TagName
	}
	return sdk.Record{
		ID:     project + "@" + rel.TagName,
		Source: "gitlab",
		Kind:   sdk.KindRelease,
		Title:  title,
		Body:   rel.Description,
		URL:    rel.Links.Self,
		Author: rel.Author.Username,
		Time:   firstTime(rel.ReleasedAt, rel.CreatedAt),
		Fields: dropEmpty(fields),
	}
}
