package lint

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFixedFilterTakenFromTheQuestionElsewhere(t *testing.T) {
	intent := func(other string) string {
		return `intent "status" {
  hypothesis "h" {
    description = "d"
    action      = "retrieve"
  }
  retrieve "open_issues" {
    source = "s"
    fixed  = { statuses = ["open"] }
  }
  retrieve "other" {
    source = "s"
    ` + other + `
  }
}
source "s" { plugin = "builtin:file" }
`
	}
	for _, tc := range []struct {
		name, other string
		summary     string // "" for no finding
	}{
		{"another retrieve takes it from the question", `filters = ["projects", "statuses"]`, `Filter "statuses" is fixed here and taken from the question by retrieve "other"`},
		{"another retrieve fixes it too", `fixed = { statuses = ["closed"] }`, ""},
		{"another retrieve filters on other entities", `filters = ["projects"]`, ""},
		{"another retrieve defaults it", `defaults = { statuses = ["open"] }`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, diags := rules.Parse("r.hcl", []byte(intent(tc.other)))
			require.False(t, diags.HasErrors(), diags.Error())
			got := fixedFilters(rs)
			if tc.summary == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Equal(t, rules.CheckFixedFilter, rules.CheckName(got[0]))
			assert.Equal(t, hcl.DiagWarning, got[0].Severity)
			assert.Equal(t, tc.summary, got[0].Summary)
			assert.Equal(t, 6, got[0].Subject.Start.Line, "the finding points at the retrieve that fixes it")
			assert.Contains(t, got[0].Detail, `Intent "status"`)
		})
	}
}
