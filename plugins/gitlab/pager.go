package gitlab

import (
	"context"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/plugins/internal/retry"
	"github.com/nous-dev/nous/sdk"
)

// perPage is GitLab's maximum page size.
const perPage = 100

// listFunc fetches one offset page of a project's T list.
type listFunc[T any] func(opts gl.ListOptions, reqOpts ...gl.RequestOptionFunc) ([]T, *gl.Response, error)

// paginate walks offset pages of list, handing each item to each, until
// each fails (the caller's limit is an error from each), the server sends
// no X-Next-Page, or a page comes back empty. X-Total is never consulted:
// GitLab omits it for commits and for lists above 10,000 rows. pageSize
// below 100 shrinks the pages when the caller needs fewer items.
func paginate[T any](ctx context.Context, policy retry.Policy, project string, pageSize int, list listFunc[T], each func(T) error) error {
	opts := gl.ListOptions{PerPage: perPage, Page: 1}
	if pageSize > 0 && pageSize < perPage {
		opts.PerPage = int64(pageSize)
	}
	for {
		var items []T
		var resp *gl.Response
		err := policy.Do(ctx, func(ctx context.Context) error {
			var err error
			var body []byte
			items, resp, body, err = safeList(ctx, list, opts)
			return classify(ctx, project, body, err)
		})
		if err != nil {
			return giveUp(ctx, project, err)
		}
		for _, it := range items {
			if err := each(it); err != nil {
				return err
			}
		}
		if len(items) == 0 || resp == nil || resp.NextPage <= opts.Page {
			return nil
		}
		opts.Page = resp.NextPage
	}
}

// safeList calls list and turns a panic inside the client (it indexes
// header parts and reflects on decoded JSON without checks) into an error,
// so a malformed response cannot take the plugin down.
// It also returns the body of a failed response, which the client drops.
func safeList[T any](ctx context.Context, list listFunc[T], opts gl.ListOptions) (items []T, resp *gl.Response, errBody []byte, err error) {
	ctx, eb := withErrorBody(ctx)
	defer func() {
		if r := recover(); r != nil {
			items, resp = nil, nil
			err = sdk.Errorf(sdk.KindUnavailable, "gitlab: malformed response on page %d: %v", opts.Page, r)
		}
		errBody = eb.data
	}()
	items, resp, err = list(opts, gl.WithContext(ctx))
	return items, resp, nil, err
}
