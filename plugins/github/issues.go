package github

import (
	"context"
	"strconv"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/sdk"
)

// fetchIssues lists a repository's issues, newest first by the date field,
// skipping the pull requests the endpoint also returns. State, creator,
// assignee, milestone (by number), labels and (for updated) since go to
// the API.
func (r *fetchRun) fetchIssues(ctx context.Context, sc scope) error {
	owner, name, _ := splitRepo(sc.repo)
	q := r.q
	milestone, err := r.milestoneNumber(ctx, sc.repo, sc.milestone)
	if err != nil {
		return err
	}
	opt := gh.IssueListByRepoOptions{State: sc.state, Creator: sc.author, Assignee: sc.assignee, Milestone: milestone,
		Labels: q.labels, Sort: q.dateField, Direction: "desc"}
	if q.dateField == "updated" {
		opt.Since = q.since
	}
	list := func(ctx context.Context, lo gh.ListOptions) ([]*gh.Issue, *gh.Response, error) {
		o := opt
		o.ListOptions = lo
		return r.client.Issues.ListByRepo(ctx, owner, name, &o)
	}
	return paginate(ctx, r, sc.repo, list, func(i *gh.Issue) error {
		if i == nil || i.PullRequestLinks != nil {
			return nil
		}
		rec := issueRecord(i, sc.repo, q.dateField)
		switch q.window(rec.Time) {
		case -1:
			return errDone
		case 1:
			return nil
		}
		return r.out(rec)
	})
}

func issueRecord(i *gh.Issue, repo, dateField string) sdk.Record {
	fields := map[string]any{
		"repo":     repo,
		"number":   int64(i.GetNumber()),
		"state":    i.GetState(),
		"labels":   labelNames(i.Labels),
		"comments": int64(i.GetComments()),
	}
	if r := i.GetStateReason(); r != "" {
		fields["state_reason"] = r
	}
	if m := i.GetMilestone().GetTitle(); m != "" {
		fields["milestone"] = m
	}
	if assignees := logins(i.Assignees); len(assignees) > 0 {
		fields["assignees"] = assignees
	}
	setTimes(fields, map[string]*gh.Timestamp{"created_at": i.CreatedAt, "updated_at": i.UpdatedAt, "closed_at": i.ClosedAt})
	return sdk.Record{
		ID:     repo + "#" + strconv.Itoa(i.GetNumber()),
		Source: "github",
		Kind:   sdk.KindIssue,
		Title:  i.GetTitle(),
		Body:   i.GetBody(),
		URL:    i.GetHTMLURL(),
		Author: i.GetUser().GetLogin(),
		Time:   recordTime(dateField, i.CreatedAt, i.UpdatedAt),
		Fields: fields,
	}
}

// logins are the users' logins, blanks dropped.
func logins(users []*gh.User) []string {
	var out []string
	for _, u := range users {
		if u.GetLogin() != "" {
			out = append(out, u.GetLogin())
		}
	}
	return out
}

func labelNames(labels []*gh.Label) []string {
	out := make([]string, 0, len(labels))
	for _, l := range labels {
		if l.GetName() != "" {
			out = append(out, l.GetName())
		}
	}
	return out
}

// setTimes adds the timestamps that are set, in UTC.
func setTimes(fields map[string]any, times map[string]*gh.Timestamp) {
	for key, t := range times {
		if t != nil && !t.IsZero() {
			fields[key] = t.UTC()
		}
	}
}
