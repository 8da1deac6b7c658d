package gitlab

import (
	"context"
	"errors"
	"fmt"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
)

var _ sdk.Grounder = (*Source)(nil)

// Ground looks up a question's projects (GET /projects/:id, by path or
// numeric ID) and refs (a tag, else a branch, of each configured project:
// its commit and commit time). Other kinds are not grounded. A term the
// API does not find is unknown; any other failure fails the call.
func (s *Source) Ground(ctx context.Context, req sdk.GroundRequest) (resp sdk.GroundResponse, err error) {
	s.mu.RLock()
	client, cfg := s.client, s.cfg
	s.mu.RUnlock()
	red := redact.New(cfg.Token)
	defer func() {
		if r := recover(); r != nil {
			err = &sdk.Error{Kind: sdk.KindUnknown, Message: red.String(fmt.Sprintf("gitlab: internal error: %v", r))}
		}
	}()
	if client == nil {
		return sdk.GroundResponse{}, sdk.Errorf(sdk.KindBadConfig, "gitlab: not configured (call Configure with a token first)")
	}
	g := grounder{client: client, policy: s.deps.Policy, projects: cfg.Projects}
	resp = sdk.GroundResponse{
		Terms:    make([]sdk.GroundedTerm, len(req.Terms)),
		Coverage: sdk.Coverage{Name: strings.Join(cfg.Projects, ", ")},
	}
	for i, t := range req.Terms {
		if resp.Terms[i], err = g.ground(ctx, t); err != nil {
			return sdk.GroundResponse{}, red.Error(err)
		}
	}
	return resp, nil
}

// grounder is one Ground call's client and default projects.
type grounder struct {
	client   *gl.Client
	policy   retry.Policy
	projects []string
}

func (g grounder) ground(ctx context.Context, t sdk.Term) (sdk.GroundedTerm, error) {
	out := sdk.GroundedTerm{Kind: t.Kind, Value: t.Value}
	switch t.Kind {
	case sdk.TermProject:
		p, err := get(ctx, g.policy, t.Value, func(o ...gl.RequestOptionFunc) (*gl.Project, *gl.Response, error) {
			return g.client.Projects.GetProject(t.Value, nil, o...)
		})
		if p == nil || err != nil {
			out.Note = "no GitLab project at this path or ID that the token can see"
			return out, err
		}
		out.Known, out.Canonical = true, []string{p.PathWithNamespace}
		return out, nil
	case sdk.TermRef:
		if len(g.projects) == 0 {
			out.Note = "no default projects are configured to look refs up in"
			return out, nil
		}
		for _, project := range g.projects {
			known, err := g.ref(ctx, project, t.Value, &out)
			if known || err != nil {
				return out, err
			}
		}
		out.Note = "no tag or branch of this name in " + strings.Join(g.projects, ", ")
		return out, nil
	default:
		out.Note = "the gitlab source grounds project and ref terms only"
		return out, nil
	}
}

// ref looks name up as a tag, then as a branch, of project.
func (g grounder) ref(ctx context.Context, project, name string, out *sdk.GroundedTerm) (bool, error) {
	tag, err := get(ctx, g.policy, project, func(o ...gl.RequestOptionFunc) (*gl.Tag, *gl.Response, error) {
		return g.client.Tags.GetTag(project, name, o...)
	})
	if err != nil {
		return false, err
	}
	commit, what := (*gl.Commit)(nil), "tag"
	if tag != nil {
		commit = tag.Commit
	} else {
		branch, err := get(ctx, g.policy, project, func(o ...gl.RequestOptionFunc) (*gl.Branch, *gl.Response, error) {
			return g.client.Branches.GetBranch(project, name, o...)
		})
		if err != nil || branch == nil {
			return false, err
		}
		commit, what = branch.Commit, "branch"
	}
	out.Known, out.Canonical = true, []string{name}
	out.Note = fmt.Sprintf("a %s of %s", what, project)
	if commit != nil {
		out.ID = commit.ID
		if commit.CommittedDate != nil {
			out.Time = *commit.CommittedDate
		}
	}
	return true, nil
}

// get runs one GET under the retry policy. Not found is (nil, nil): for
// grounding it is an answer, not a failure.
func get[T any](ctx context.Context, policy retry.Policy, project string, call func(...gl.RequestOptionFunc) (*T, *gl.Response, error)) (*T, error) {
	var out *T
	err := policy.Do(ctx, func(ctx context.Context) error {
		ctx, eb := withErrorBody(ctx)
		var err error
		out, _, err = call(gl.WithContext(ctx))
		return classify(ctx, project, eb.data, err)
	})
	if errors.Is(err, sdk.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, giveUp(ctx, project, err)
	}
	return out, nil
}
