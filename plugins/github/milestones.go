package github

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/sdk"
)

// maxMilestones bounds the milestones listed to resolve titles.
const maxMilestones = 1000

// repoMilestones lists a repository's milestones, open and closed, once
// per fetch (at most maxMilestones).
func (r *fetchRun) repoMilestones(ctx context.Context, repo string) ([]*gh.Milestone, error) {
	if ms, ok := r.milestones[repo]; ok {
		return ms, nil
	}
	owner, name, _ := splitRepo(repo)
	list := func(ctx context.Context, lo gh.ListOptions) ([]*gh.Milestone, *gh.Response, error) {
		return r.client.Issues.ListMilestones(ctx, owner, name, &gh.MilestoneListOptions{State: "all", ListOptions: lo})
	}
	var ms []*gh.Milestone
	err := paginate(ctx, r, repo, list, func(m *gh.Milestone) error {
		if m != nil {
			ms = append(ms, m)
		}
		if len(ms) >= maxMilestones {
			return errDone
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.milestones[repo] = ms
	return ms, nil
}

// findMilestone resolves a "milestones" value, a number or a title, in repo;
// "none", "*" and "" (no filter) stand for themselves and need no listing.
func (r *fetchRun) findMilestone(ctx context.Context, repo, value string) (*gh.Milestone, error) {
	if value == "" || value == "none" || value == "*" {
		return nil, nil
	}
	ms, err := r.repoMilestones(ctx, repo)
	if err != nil {
		return nil, err
	}
	n, numeric := strconv.Atoi(value)
	i := slices.IndexFunc(ms, func(m *gh.Milestone) bool {
		return (numeric == nil && m.GetNumber() == n) || strings.EqualFold(m.GetTitle(), value)
	})
	if i < 0 {
		known := "it has none"
		if len(ms) > 0 {
			titles := make([]string, 0, 10)
			for _, m := range ms[:min(len(ms), 10)] {
				titles = append(titles, strconv.Quote(m.GetTitle()))
			}
			known = fmt.Sprintf("it has %d: %s", len(ms), strings.Join(titles, ", "))
		}
		return nil, sdk.Errorf(sdk.KindBadRequest, `github: filter "milestones": no milestone %q in %s (%s); want a number, a title, "none" or "*"`,
			value, describeRepo(repo), known)
	}
	return ms[i], nil
}

// milestoneNumber is the /issues milestone parameter for a filter value.
func (r *fetchRun) milestoneNumber(ctx context.Context, repo, value string) (string, error) {
	m, err := r.findMilestone(ctx, repo, value)
	if m == nil {
		return value, err
	}
	return strconv.Itoa(m.GetNumber()), nil
}

// milestoneTitles are the filter's values with numbers and titles
// replaced by the milestones' exact titles, as pull requests carry them.
func (r *fetchRun) milestoneTitles(ctx context.Context, repo string, values []string) ([]string, error) {
	out := make([]string, 0, len(values))
	for _, v := range values {
		m, err := r.findMilestone(ctx, repo, v)
		if err != nil {
			return nil, err
		}
		if m != nil {
			v = m.GetTitle()
		}
		out = append(out, v)
	}
	return out, nil
}
