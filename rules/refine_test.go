package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeRefineNearest(t *testing.T) {
	check := func(refine string) string {
		return "check \"c\" {\n  assert  = \"len(step.records) > 0\"\n  on_fail = \"refine\"\n  refine {\n" + refine + "  }\n}\n"
	}
	tests := []struct {
		name    string
		refine  string
		nearest string
		err     string // summary of the one error, "" for none
	}{
		{"before", "    nearest = \"before\"\n", NearestBefore, ""},
		{"after with explicit MODIFY", "    op = \"MODIFY\"\n    nearest = \"after\"\n", NearestAfter, ""},
		{"unset", "    drop_filters = [\"projects\"]\n", "", ""},
		{"unknown direction", "    nearest = \"around\"\n", "", `Invalid value for "nearest"`},
		{"with ADD", "    op = \"ADD\"\n    nearest = \"before\"\n", NearestBefore, `"nearest" needs op = "MODIFY"`},
		{"with REPLACE", "    op = \"REPLACE\"\n    nearest = \"after\"\n", NearestAfter, `"nearest" needs op = "MODIFY"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := Parse("c.hcl", []byte(check(tt.refine)))
			if tt.err == "" {
				require.False(t, diags.HasErrors(), diags.Error())
				require.Len(t, rs.Checks, 1)
				assert.Equal(t, tt.nearest, rs.Checks[0].Refine.Nearest)
				return
			}
			require.Len(t, diags, 1, diags.Error())
			assert.Equal(t, tt.err, diags[0].Summary)
			assert.Equal(t, CheckInvalidValue, CheckName(diags[0]))
			src := check(tt.refine)
			line := 1 + strings.Count(src[:strings.Index(src, "nearest")], "\n")
			assert.Equal(t, line, diags[0].Subject.Start.Line, "the diagnostic points at the nearest attribute")
		})
	}
}
