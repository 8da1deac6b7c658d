package template

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nous-dev/nous/sdk"
)

// TestCitationsAgreeWithCited checks the split-once form against cited on
// IDs that are one word, IDs that are not, short forms and backquotes.
func TestCitationsAgreeWithCited(t *testing.T) {
	const hash = "0e637b5a1c4c84f0556987aa11bb22cc33dd44ee"
	records := []sdk.Record{
		{ID: hash},
		{ID: "abc"},
		{ID: "PROJ-12"},
		{ID: "PROJ-1"},
		{ID: "issue_42"},
		{ID: hash, Fields: map[string]any{"short_id": "0e637b5"}},
		{ID: hash, Fields: map[string]any{"short_id": "v1.2"}},
		{ID: ""},
	}
	drafts := []string{
		"",
		"- `0e637b5a` src: document login redirect",
		"- 0e637b5a1c4c84f0556987aa11bb22cc33dd44ee fixed",
		"x0e637b5a1c4c84f0556987aa11bb22cc33dd44ee",
		"see 0e637b5 and `abc` and PROJ-12, not PROJ-123",
		"issue_42_b; issue_42.",
		"`v1.2` then 0e637b5_",
		"提交 0e637b5a：完成",
	}
	for _, d := range drafts {
		c := newCitations(d)
		for _, r := range records {
			assert.Equal(t, cited(d, r), c.cites(r), "draft %q, record %q %v", d, r.ID, r.Fields)
		}
	}
}

// TestWithoutTitlesSharedTitles cuts titles that several records share,
// and a longer title before a shorter one it starts with.
func TestWithoutTitlesSharedTitles(t *testing.T) {
	records := []sdk.Record{
		{ID: "a1b2c3d4", Title: "api: fix retry loop"},
		{ID: "b1b2c3d4", Title: "  api: fix retry loop "},
		{ID: "c1b2c3d4", Title: "api: fix retry loop twice"},
		{ID: "d1b2c3d4", Title: "api: fix retry loop"},
	}
	draft := "- `a1b2c3d4` api: fix retry loop\n- `c1b2c3d4` api: fix retry loop twice\n- 3 commits"
	assert.Equal(t, "- `a1b2c3d4` \n- `c1b2c3d4`  twice\n- 3 commits", withoutTitles(draft, records))
}
