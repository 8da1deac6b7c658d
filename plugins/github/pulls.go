package github

import (
	"context"
	"strconv"
	"time"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/sdk"
)

// fetchPullRequests lists a repository's pull requests, newest first by
// the date field. State and base branch go to the API; merged vs closed,
// authors and labels, which /pulls cannot filter, are applied here.
func (r *fetchRun) fetchPullRequests(ctx context.Context, sc scope) error {
	owner, name, _ := splitRepo(sc.repo)
	q := r.q
	opt := gh.PullRequestListOptions{State: sc.state, Base: q.ref, Sort: q.dateField, Direction: "desc"}
	list := func(ctx context.Context, lo gh.ListOptions) ([]*gh.PullRequest, *gh.Response, error) {
		o := opt
		o.ListOptions = lo
		return r.client.PullRequests.List(ctx, owner, name, &o)
	}
	return paginate(ctx, r, sc.repo, list, func(pr *gh.PullRequest) error {
		if pr == nil {
			return nil
		}
		rec := pullRequestRecord(pr, sc.repo, q.dateField)
		switch q.window(rec.Time) {
		case -1:
			return errDone
		case 1:
			return nil
		}
		if !q.keepPull(rec.Fields["state"].(string), rec.Author, rec.Fields["labels"].([]string)) {
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
	for key, v := range map[string]string{"base": pr.GetBase().GetRef(), "head": pr.GetHead().GetRef(), "sha": pr.GetHead().GetSHA()} {
		if v != "" {
			fields[key] = v
		}
	}
	if pullState(pr) == "merged" && pr.GetMergeCommitSHA() != "" {
		fields["merge_commit_sha"] = pr.GetMergeCommitSHA()
	}
	setTimes(fields, map[string]*gh.Timestamp{"created_at": pr.CreatedAt, "updated_at": pr.UpdatedAt, "closed_at": pr.ClosedAt, "merged_at": pr.MergedAt})
	return sdk.Record{
		ID:     repo + "#" + strconv.Itoa(pr.GetNumber()),
		Source: "github",
		Kind:   sdk.KindPullRequest,
		Title:  pr.GetTitle(),
		Body:   pr.GetBody(),
		URL:    pr.GetHTMLURL(),
		Author: pr.GetUser().GetLogin(),
		Time:   recordTime(dateField, pr.CreatedAt, pr.UpdatedAt),
		Fields: fields,
	}
}

// recordTime is the timestamp the request's date range applies to.
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
