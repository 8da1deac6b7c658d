package github

import (
	"context"
	"errors"
	"fmt"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/sdk"
)

// perPage is GitHub's maximum page size.
const perPage = 100

// errDone ends one listing early: its items, newest first, have passed the
// request's since bound.
var errDone = errors.New("past the date range")

// listFunc fetches one page of a repository's T list.
type listFunc[T any] func(ctx context.Context, opts gh.ListOptions) ([]T, *gh.Response, error)

// paginate follows the Link header's next page, handing each item to each,
// until each fails (errDone ends the listing quietly) or no next page is
// left. Each page goes through the retry policy.
func paginate[T any](ctx context.Context, r *fetchRun, repo string, list listFunc[T], each func(T) error) error {
	opts := gh.ListOptions{PerPage: r.pageSize(), Page: 1}
	for {
		var items []T
		var resp *gh.Response
		err := r.policy.Do(ctx, func(ctx context.Context) error {
			var err error
			items, resp, err = safeList(ctx, list, opts)
			return classify(ctx, repo, r.authenticated, err)
		})
		if err != nil {
			return giveUp(ctx, repo, err)
		}
		for _, it := range items {
			if err := each(it); err != nil {
				if errors.Is(err, errDone) {
					return nil
				}
				return err
			}
		}
		if len(items) == 0 || resp == nil || resp.NextPage <= opts.Page {
			return nil
		}
		opts.Page, opts.PerPage = resp.NextPage, r.pageSize()
	}
}

// safeList calls list and turns a panic inside the client into an error,
// so a malformed response cannot take the plugin down.
func safeList[T any](ctx context.Context, list listFunc[T], opts gh.ListOptions) (items []T, resp *gh.Response, err error) {
	defer func() {
		if p := recover(); p != nil {
			items, resp = nil, nil
			err = sdk.Errorf(sdk.KindUnavailable, "github: malformed response on page %d: %v", opts.Page, p)
		}
	}()
	return list(ctx, opts)
}

// describeRepo is how errors name a repository.
func describeRepo(repo string) string { return fmt.Sprintf("repository %q", repo) }
