package gitlab

import (
	"context"
	"strconv"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/sdk"
)

// fetchIssues lists a project's issues; since/until bound the created or
// updated time, as date_field says.
func (r *fetchRun) fetchIssues(ctx context.Context, sc scope, pageSize int) error {
	q := r.q
	opt := &gl.ListProjectIssuesOptions{
		State:          ptr(sc.status),
		AuthorUsername: ptr(sc.author),
		Search:         ptr(q.search),
		Labels:         q.labelOptions(),
		OrderBy:        ptr(q.dateField + "_at"),
		Sort:           ptr("desc"),
	}
	opt.CreatedAfter, opt.CreatedBefore, opt.UpdatedAfter, opt.UpdatedBefore = q.dateBounds()
	list := func(lo gl.ListOptions, ro ...gl.RequestOptionFunc) ([]*gl.Issue, *gl.Response, error) {
		o := *opt
		o.ListOptions = lo
		return r.client.Issues.ListProjectIssues(sc.project, &o, ro...)
	}
	return paginate(ctx, r.policy, sc.project, pageSize, list, func(i *gl.Issue) error {
		if i == nil {
			return nil
		}
		return r.out(issueRecord(i, sc.project, q.dateField))
	})
}

func issueRecord(i *gl.Issue, project, dateField string) sdk.Record {
	fields := map[string]any{
		"project":  project,
		"iid":      i.IID,
		"state":    i.State,
		"labels":   []string(i.Labels),
		"comments": i.UserNotesCount,
	}
	if i.CreatedAt != nil {
		fields["created_at"] = i.CreatedAt.UTC()
	}
	if i.UpdatedAt != nil {
		fields["updated_at"] = i.UpdatedAt.UTC()
	}
	if i.ClosedAt != nil {
		fields["closed_at"] = i.ClosedAt.UTC()
	}
	if i.Milestone != nil {
		fields["milestone"] = i.Milestone.Title
	}
	var assignees []string
	for _, a := range i.Assignees {
		if a != nil {
			assignees = append(assignees, a.Username)
		}
	}
	fields["assignees"] = assignees
	author := ""
	if i.Author != nil {
		author = i.Author.Username
	}
	ref := reference(i.References, project+"#"+strconv.FormatInt(i.IID, 10))
	return sdk.Record{
		ID:     ref,
		Source: "gitlab",
		Kind:   sdk.KindIssue,
		Title:  i.Title,
		Body:   i.Description,
		URL:    i.WebURL,
		Author: author,
		Time:   recordTime(dateField, i.CreatedAt, i.UpdatedAt),
		Fields: dropEmpty(fields),
	}
}
