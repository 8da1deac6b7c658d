package gitlab

import (
	"context"
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/sdk"
)

// fetchCommits lists a project's commits. It never sets `trailers`: the
// client cannot decode the `extended_trailers` arrays GitLab then sends.
func (r *fetchRun) fetchCommits(ctx context.Context, sc scope, pageSize int) error {
	q := r.q
	opt := &gl.ListCommitsOptions{
		RefName:   ptr(q.ref),
		Path:      ptr(q.path),
		Author:    ptr(sc.author),
		Since:     timePtr(q.since),
		Until:     timePtr(q.until),
		WithStats: ptr(q.withStats),
	}
	list := func(lo gl.ListOptions, ro ...gl.RequestOptionFunc) ([]*gl.Commit, *gl.Response, error) {
		o := *opt
		o.ListOptions = lo
		return r.client.Commits.ListCommits(sc.project, &o, ro...)
	}
	return paginate(ctx, r.policy, sc.project, pageSize, list, func(c *gl.Commit) error {
		if c == nil {
			return nil
		}
		return r.out(commitRecord(c, sc.project, q.ref))
	})
}

func commitRecord(c *gl.Commit, project, ref string) sdk.Record {
	fields := map[string]any{
		"project":      project,
		"sha":          c.ID,
		"author_email": c.AuthorEmail,
		"committer":    c.CommitterName,
		"parents":      int64(len(c.ParentIDs)),
	}
	if ref != "" {
		fields["ref"] = ref
	}
	if c.Stats != nil {
		fields["additions"] = c.Stats.Additions
		fields["deletions"] = c.Stats.Deletions
	}
	if c.AuthoredDate != nil {
		fields["authored_at"] = c.AuthoredDate.UTC()
	}
	id := c.ShortID
	if id == "" && len(c.ID) >= 8 {
		id = c.ID[:8]
	}
	return sdk.Record{
		ID:     id,
		Source: "gitlab",
		Kind:   sdk.KindCommit,
		Title:  c.Title,
		Body:   c.Message,
		URL:    c.WebURL,
		Author: c.AuthorName,
		Time:   firstTime(c.CommittedDate, c.AuthoredDate, c.CreatedAt),
		Fields: dropEmpty(fields),
	}
}

// firstTime returns the first non-nil time, in UTC; zero when all are nil.
func firstTime(ts ...*time.Time) time.Time {
	for _, t := range ts {
		if t != nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// dropEmpty removes empty strings and nil slices, so records only carry
// fields GitLab actually sent.
func dropEmpty(m map[string]any) map[string]any {
	for k, v := range m {
		switch v := v.(type) {
		case string:
			if v == "" {
				delete(m, k)
			}
		case []string:
			if len(v) == 0 {
				delete(m, k)
			}
		}
	}
	return m
}
