package lint

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRefinementsThatChangeTheQuestion(t *testing.T) {
	check := func(refine string) string {
		return "check \"c\" {\n  assert  = \"len(step.records) > 0\"\n  on_fail = \"refine\"\n  refine {\n" + refine + "  }\n}\n"
	}
	tests := []struct {
		name, refine string
		check        string // "" for no finding
		summary      string
	}{
		{"drops the period", "    drop_filters = [\"dates\"]\n", rules.CheckChangesQuestion, "Refinement drops the asked period"},
		{"drops the period among others", "    drop_filters = [\"projects\", \"dates\"]\n", rules.CheckChangesQuestion, "Refinement drops the asked period"},
		{"nearest with the period dropped", "    drop_filters = [\"dates\"]\n    nearest = \"before\"\n", rules.CheckUnreachable, "Nearest refinement without a period"},
		{"nearest before", "    nearest = \"before\"\n", "", ""},
		{"drops another filter", "    drop_filters = [\"projects\"]\n", "", ""},
		{"sets the period", "    set_filters = { dates = [\"last month\"] }\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := rules.Parse("c.hcl", []byte(check(tt.refine)))
			require.False(t, diags.HasErrors(), diags.Error())
			got := refinements(rs)
			if tt.check == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Equal(t, tt.check, rules.CheckName(got[0]))
			assert.Equal(t, tt.summary, got[0].Summary)
			assert.Equal(t, hcl.DiagWarning, got[0].Severity)
			assert.Equal(t, 4, got[0].Subject.Start.Line, "the finding points at the refine block")
			assert.Contains(t, got[0].Detail, `Check "c"`)
		})
	}
}
