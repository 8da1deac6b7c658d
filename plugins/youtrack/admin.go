package youtrack

import (
	"context"
	"net/url"
	"strconv"
)

// maxAdminItems bounds how many projects or state bundles one Ground
// reads; an instance with more is grounded against the first ones.
const maxAdminItems = 2000

// AdminProject is a project as GET /api/admin/projects returns it.
type AdminProject struct {
	Project
	Archived bool `json:"archived"`
}

// StateBundle is a set of State values, as
// GET /api/admin/customFieldSettings/bundles/state returns it.
type StateBundle struct {
	Name   string       `json:"name"`
	Values []StateValue `json:"values"`
}

// StateValue is one State of a bundle.
type StateValue struct {
	Name       string `json:"name"`
	IsResolved bool   `json:"isResolved"`
}

// Projects lists the projects the token can see; truncated says the
// list stopped at maxAdminItems.
func (c *Client) Projects(ctx context.Context) (projects []AdminProject, truncated bool, err error) {
	return adminList[AdminProject](ctx, c, "/admin/projects", "name,shortName,archived")
}

// StateBundles lists the State bundles and their values.
func (c *Client) StateBundles(ctx context.Context) (bundles []StateBundle, truncated bool, err error) {
	return adminList[StateBundle](ctx, c, "/admin/customFieldSettings/bundles/state", "name,values(name,isResolved)")
}

// adminList pages through an admin list (YouTrack answers only id and
// $type without fields, so fields is always sent).
func adminList[T any](ctx context.Context, c *Client, path, fields string) ([]T, bool, error) {
	var out []T
	for skip := 0; ; {
		v := url.Values{}
		v.Set("fields", fields)
		v.Set("$skip", strconv.Itoa(skip))
		v.Set("$top", strconv.Itoa(pageSize))
		u := *c.api
		u.Path += path
		u.RawQuery = v.Encode()
		var page []T
		err := c.policy.Do(ctx, func(ctx context.Context) error {
			page = nil
			return c.get(ctx, u.String(), &page)
		})
		if err != nil {
			return nil, false, giveUp(err)
		}
		out = append(out, page...)
		switch {
		case len(page) < pageSize:
			return out, false, nil
		case len(out) >= maxAdminItems:
			return out, true, nil
		}
		skip += len(page)
	}
}
