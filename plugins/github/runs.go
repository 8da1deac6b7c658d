package github

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/sdk"
)

// runStatuses are the values /actions/runs' status parameter takes: a
// status or a conclusion.
var runStatuses = []string{"completed", "action_required", "cancelled", "failure", "neutral", "skipped", "stale",
	"success", "timed_out", "in_progress", "queued", "requested", "waiting", "pending"}

// normaliseRunStatus maps a user's word (GitLab's included) to a run status.
func normaliseRunStatus(status string) (string, error) {
	s := strings.ToLower(strings.TrimSpace(status))
	switch s {
	case "all", "":
		return "all", nil
	case "failed", "red":
		return "failure", nil
	case "passed", "green":
		return "success", nil
	case "running":
		return "in_progress", nil
	case "canceled":
		return "cancelled", nil
	}
	if slices.Contains(runStatuses, s) {
		return s, nil
	}
	return "", sdk.Errorf(sdk.KindBadRequest, "github: unknown pipeline status %q: want one of %s", status, strings.Join(runStatuses, ", "))
}

// fetchRuns lists a repository's GitHub Actions workflow runs, newest
// first; status, branch, actor and the created range go to the API.
func (r *fetchRun) fetchRuns(ctx context.Context, sc scope) error {
	owner, name, _ := splitRepo(sc.repo)
	q := r.q
	opt := gh.ListWorkflowRunsOptions{Branch: q.ref, Actor: sc.author, Created: createdRange(q.since, q.until)}
	if sc.state != "all" {
		opt.Status = sc.state
	}
	list := func(ctx context.Context, lo gh.ListOptions) ([]*gh.WorkflowRun, *gh.Response, error) {
		o := opt
		o.ListOptions = lo
		runs, resp, err := r.client.Actions.ListRepositoryWorkflowRuns(ctx, owner, name, &o)
		if runs == nil {
			return nil, resp, err
		}
		return runs.WorkflowRuns, resp, err
	}
	return paginate(ctx, r, sc.repo, list, func(run *gh.WorkflowRun) error {
		if run == nil || run.GetID() == 0 {
			return nil
		}
		return r.out(runRecord(run, sc.repo))
	})
}

// createdRange is the created parameter's search syntax for since/until.
func createdRange(since, until time.Time) string {
	const layout = "2006-01-02T15:04:05Z"
	switch {
	case !since.IsZero() && !until.IsZero():
		return since.UTC().Format(layout) + ".." + until.UTC().Format(layout)
	case !since.IsZero():
		return ">=" + since.UTC().Format(layout)
	case !until.IsZero():
		return "<=" + until.UTC().Format(layout)
	}
	return ""
}

func runRecord(run *gh.WorkflowRun, repo string) sdk.Record {
	state := run.GetConclusion()
	if state == "" {
		state = run.GetStatus()
	}
	fields := map[string]any{
		"repo":       repo,
		"state":      state,
		"run_number": int64(run.GetRunNumber()),
	}
	for key, v := range map[string]string{"status": run.GetStatus(), "conclusion": run.GetConclusion(), "ref": run.GetHeadBranch(),
		"sha": run.GetHeadSHA(), "event": run.GetEvent(), "workflow": run.GetName(), "actor": run.GetActor().GetLogin()} {
		if v != "" {
			fields[key] = v
		}
	}
	setTimes(fields, map[string]*gh.Timestamp{"created_at": run.CreatedAt, "updated_at": run.UpdatedAt})
	return sdk.Record{
		ID:     repo + "/actions/runs/" + strconv.FormatInt(run.GetID(), 10),
		Source: "github",
		Kind:   sdk.KindPipeline,
		Title:  fmt.Sprintf("%s #%d %s on %s (%s)", run.GetName(), run.GetRunNumber(), state, run.GetHeadBranch(), run.GetEvent()),
		URL:    run.GetHTMLURL(),
		Author: run.GetActor().GetLogin(),
		Time:   recordTime("created", run.CreatedAt, run.UpdatedAt),
		Fields: fields,
	}
}
