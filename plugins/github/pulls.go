package github

import (
	"context"
	"strconv"
	"time"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/sdk"
)

// fetchPullRequests answers a pull request scope with the search API when
// the request filters what /pulls cannot and the searches fit its limits,
// else by listing.
func (r *fetchRun) fetchPullRequests(ctx context.Context, sc scope) error {
	q := r.q
	titles, err := r.milestoneTitles(ctx, sc.repo, q.milestones)
	if err != nil {
		return err
	}
	q.milestones = titles
	if q.wantsSearch() {
		if searches, ok := q.searches(sc); ok {
			return r.searchPullRequests(ctx, sc, q, searches)
		}
		r.logger.Info("github: the search would not fit the search API's limits; listing pull requests instead", "scope", sc.String())
	}
	return r.listPullRequests(ctx, sc, q)
}

// listPullRequests lists a repository's pull requests, newest first by the
// date field (updated for merged and closed). State and base branch go to
// the API; merged vs closed, authors, labels, assignees, milestones and a
// merged or closed date range, which /pulls cannot filter, are applied here.
func (r *fetchRun) listPullRequests(ctx context.Context, sc scope, q query) error {
	owner, name, _ := splitRepo(sc.repo)
	opt := gh.PullRequestListOptions{State: sc.state, Base: q.ref, Sort: q.listSort(), Direction: "desc"}
	list := func(ctx context.Context, lo gh.ListOptions) ([]*gh.PullRequest, *gh.Response, error) {
		o := opt
		o.ListOptions = lo
		return r.client.PullRequests.List(ctx, owner, name, &o)
	}
	return paginate(ctx, r, sc.repo, list, func(pr *gh.PullRequest) error {
		if pr == nil {
			return nil
		}
		if q.window(recordTime(q.listSort(), pr.CreatedAt, pr.UpdatedAt)) < 0 {
			return errDone // merged_at and closed_at are never after updated_at
		}
		rec := pullRequestRecord(pr, sc.repo, q.dateField)
		if !q.keepPull(rec) || !q.inWindow(rec) {
			return nil
		}
		return r.out(rec)
	})
}

// pullState is open, merged (closed with merged_at) or closed.
func pullState(pr *gh.PullRequest) string {
	switch {
	case pr.GetState() == "open":
		return "open"
	case pr.MergedAt != nil && !pr.MergedAt.IsZero():
		return "merged"
	}
	return "closed"
}

func pullRequestRecord(pr *gh.PullRequest, repo, dateField string) sdk.Record {
	fields := map[string]any{
		"repo":   repo,
		"number": int64(pr.GetNumber()),
		"state":  pullState(pr),
		"labels": labelNames(pr.Labels),
		"draft":  pr.GetDraft(),
	}
	for key, v := range map[string]string{"base": pr.GetBase().GetRef(), "head": pr.GetHead().GetRef(), "sha": pr.GetHead().GetSHA(),
		"milestone": pr.GetMilestone().GetTitle()} {
		if v != "" {
			fields[key] = v
		}
	}
	if assignees := logins(pr.Assignees); len(assignees) > 0 {
		fields["assignees"] = assignees
	}
	if pullState(pr) == "merged" && pr.GetMergeCommitSHA() != "" {
		fields["merge_commit_sha"] = pr.GetMergeCommitSHA()
	}
	setTimes(fields, map[string]*gh.Timestamp{"created_at": pr.CreatedAt, "updated_at": pr.UpdatedAt, "closed_at": pr.ClosedAt, "merged_at": pr.MergedAt})
	at := recordTime(dateField, pr.CreatedAt, pr.UpdatedAt)
	if t := map[string]*gh.Timestamp{"merged": pr.MergedAt, "closed": pr.ClosedAt}[dateField]; t != nil && !t.IsZero() {
		at = t.UTC()
	}
	return sdk.Record{
		ID:     repo + "#" + strconv.Itoa(pr.GetNumber()),
		Source: "github",
		Kind:   sdk.KindPullRequest,
		Title:  pr.GetTitle(),
		Body:   pr.GetBody(),
		URL:    pr.GetHTMLURL(),
		Author: pr.GetUser().GetLogin(),
		Time:   at,
		Fields: fields,
	}
}

// recordTime is the timestamp the request's date range applies to:
// created_at with "created", else updated_at.
func recordTime(dateField string, created, updated *gh.Timestamp) time.Time {
	first, second := updated, created
	if dateField == "created" {
		first, second = created, updated
	}
	for _, t := range []*gh.Timestamp{first, second} {
		if t != nil && !t.IsZero() {
			return t.UTC()
		}
	}
	return time.Time{}
}
