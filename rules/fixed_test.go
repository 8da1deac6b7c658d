package rules

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixedRules is an intent whose one retrieve holds body, from line 5.
func fixedRules(body string) string {
	return fmt.Sprintf(`intent "status" {
  hypothesis "h" { action = "retrieve" }
  retrieve "open_issues" {
    source = "s"
    %s
  }
}
source "s" { plugin = "builtin:file" }
`, body)
}

func TestFixedFilters(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		fixed      map[string][]string
		err        string // summary of the one error, "" for none
		check      string
		col        int // of the error's range, on line 5
	}{
		{"lists", `fixed = { statuses = ["open", "in-progress"] }`, map[string][]string{"statuses": {"open", "in-progress"}}, "", "", 0},
		{"a string is a list of one", `fixed = { dates = "last week" }`, map[string][]string{"dates": {"last week"}}, "", "", 0},
		{"beside filters and defaults of other entities", "fixed = { dates = [\"last week\"] }\n    filters = [\"projects\"]\n    defaults = { projects = [\"a\"] }",
			map[string][]string{"dates": {"last week"}}, "", "", 0},
		{"no values", `fixed = { statuses = [] }`, nil, `Fixed filter "statuses" has no values`, CheckInvalidValue, 13},
		{"null", `fixed = { statuses = null }`, nil, `Fixed filter "statuses" has no values`, CheckInvalidValue, 13},
		{"also in filters", "fixed = { statuses = [\"open\"] }\n    filters = [\"statuses\"]", nil, `Filter "statuses" is both fixed and in filters`, CheckInvalidValue, 13},
		{"also defaulted", "fixed = { statuses = [\"open\"] }\n    defaults = { statuses = [\"closed\"] }", nil, `Filter "statuses" is both fixed and defaulted`, CheckInvalidValue, 13},
		{"not a map", `fixed = ["open"]`, nil, `Invalid value for "fixed"`, CheckType, 13},
		{"a number list", `fixed = { statuses = [[1]] }`, nil, `Invalid value for "fixed"`, CheckType, 13},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, diags := Parse("r.hcl", []byte(fixedRules(tc.body)))
			var errs hcl.Diagnostics
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					errs = append(errs, d)
				}
			}
			if tc.err == "" {
				require.Empty(t, errs, errs.Error())
				assert.Equal(t, tc.fixed, rs.Intents[0].Retrievals[0].Fixed)
				return
			}
			require.Len(t, errs, 1, errs.Error())
			assert.Equal(t, tc.err, errs[0].Summary)
			assert.Equal(t, tc.check, CheckName(errs[0]))
			assert.Equal(t, "r.hcl", errs[0].Subject.Filename)
			assert.Equal(t, 5, errs[0].Subject.Start.Line)
			assert.Equal(t, tc.col, errs[0].Subject.Start.Column)
		})
	}
}
