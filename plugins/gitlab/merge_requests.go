package gitlab

import (
	"context"
	"strconv"
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/sdk"
)

// fetchMergeRequests lists a project's merge requests; the ref filter
// names the target branch.
func (r *fetchRun) fetchMergeRequests(ctx context.Context, sc scope, pageSize int) error {
	q := r.q
	opt := &gl.ListProjectMergeRequestsOptions{
		State:          ptr(sc.status),
		AuthorUsername: ptr(sc.author),
		Search:         ptr(q.search),
		Labels:         q.labelOptions(),
		TargetBranch:   ptr(q.ref),
		OrderBy:        ptr(q.dateField + "_at"),
		Sort:           ptr("desc"),
	}
	opt.CreatedAfter, opt.CreatedBefore, opt.UpdatedAfter, opt.UpdatedBefore = q.dateBounds()
	list := func(lo gl.ListOptions, ro ...gl.RequestOptionFunc) ([]*gl.BasicMergeRequest, *gl.Response, error) {
		o := *opt
		o.ListOptions = lo
		return r.client.MergeRequests.ListProjectMergeRequests(sc.project, &o, ro...)
	}
	return paginate(ctx, r.policy, sc.project, pageSize, list, func(mr *gl.BasicMergeRequest) error {
		if mr == nil {
			return nil
		}
		return r.out(mergeRequestRecord(mr, sc.project, q.dateField))
	})
}

func mergeRequestRecord(mr *gl.BasicMergeRequest, project, dateField string) sdk.Record {
	fields := map[string]any{
		"project":       project,
		"iid":           mr.IID,
		"state":         mr.State,
		"labels":        []string(mr.Labels),
		"source_branch": mr.SourceBranch,
		"target_branch": mr.TargetBranch,
		"sha":           mr.SHA,
		"merge_status":  mr.DetailedMergeStatus,
		"draft":         mr.Draft,
		"comments":      mr.UserNotesCount,
	}
	for key, t := range map[string]*time.Time{"created_at": mr.CreatedAt, "updated_at": mr.UpdatedAt, "merged_at": mr.MergedAt, "closed_at": mr.ClosedAt} {
		if t != nil {
			fields[key] = t.UTC()
		}
	}
	if mr.MergeCommitSHA != "" {
		fields["merge_commit_sha"] = mr.MergeCommitSHA
	}
	var reviewers []string
	for _, r := range mr.Reviewers {
		if r != nil {
			reviewers = append(reviewers, r.Username)
		}
	}
	fields["reviewers"] = reviewers
	author := ""
	if mr.Author != nil {
		author = mr.Author.Username
	}
	ref := reference(mr.References, project+"!"+strconv.FormatInt(mr.IID, 10))
	return sdk.Record{
		ID:     ref,
		Source: "gitlab",
		Kind:   sdk.KindMergeRequest,
		Title:  mr.Title,
		Body:   mr.Description,
		URL:    mr.WebURL,
		Author: author,
		Time:   recordTime(dateField, mr.CreatedAt, mr.UpdatedAt),
		Fields: dropEmpty(fields),
	}
}

// recordTime is the timestamp the request's date range applied to.
func recordTime(dateField string, created, updated *time.Time) time.Time {
	if dateField == "created" {
		return firstTime(created, updated)
	}
	return firstTime(updated, created)
}
