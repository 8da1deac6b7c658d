package rules

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeDepth(t *testing.T) {
	loop := "loop {\n  max_passes = 3\n  ttl = \"60s\"\n  max_records = 1000\n}\n"
	rs, diags := Parse("d.hcl", []byte(loop+`
profile {
  deepen = "pass.need_refinement > 0"
  ease   = "pass.failed == 0 && level > 1"
}
depth "deep" {
  level = 2
  when  = "profile.intents >= 2"
  max_passes = 3
  ttl = "45s"
}
depth "shallow" {
  level = 1
  description = "one pass"
  max_passes  = 1
  max_records = 100
}
`))
	require.False(t, diags.HasErrors(), diags.Error())
	require.Len(t, rs.Depths, 2)
	shallow, deep := rs.Depths[0], rs.Depths[1]
	assert.Equal(t, "shallow", shallow.Name, "levels are ordered lowest first")
	assert.Equal(t, []any{1, 1, 60 * time.Second, 100}, []any{shallow.Level, shallow.MaxPasses, shallow.TTL, shallow.MaxRecords}, "an unset budget is the loop's")
	assert.Equal(t, []any{2, 3, 45 * time.Second, 1000}, []any{deep.Level, deep.MaxPasses, deep.TTL, deep.MaxRecords})
	assert.Equal(t, "profile.intents >= 2", deep.When.Source)
	require.NotNil(t, rs.Profile)
	assert.Equal(t, "pass.need_refinement > 0", rs.Profile.Deepen.Source)
	assert.Equal(t, "pass.failed == 0 && level > 1", rs.Profile.Ease.Source)
}

func TestDecodeDepthErrors(t *testing.T) {
	loop := "loop {\n  max_passes = 3\n  ttl = \"60s\"\n}\n"
	tests := []struct {
		name     string
		src      string
		severity hcl.DiagnosticSeverity
		check    string
		summary  string
		at       string // text on the diagnostic's line, its last occurrence
	}{
		{"duplicate level", "depth \"a\" {\n  level = 1\n}\ndepth \"b\" {\n  level = 1\n}\n", hcl.DiagError, CheckDuplicateName, "Duplicate depth level 1", "1\n}\n"},
		{"duplicate name", "depth \"a\" {\n  level = 1\n}\ndepth \"a\" {\n  level = 2\n}\n", hcl.DiagError, CheckDuplicateName, `Duplicate depth "a"`, "depth \"a\" {\n  level = 2"},
		{"level below one", "depth \"a\" {\n  level = 0\n}\n", hcl.DiagError, CheckOutOfRange, `"level" out of range`, "0\n"},
		{"missing level", "depth \"a\" {\n  max_passes = 1\n}\n", hcl.DiagError, CheckSchema, `Missing required argument`, "{\n  max_passes"},
		{"unknown attribute", "depth \"a\" {\n  level = 1\n  passes = 2\n}\n", hcl.DiagError, CheckSchema, "Unsupported argument", "passes"},
		{"unknown profile attribute", "profile {\n  raise = \"true\"\n}\n", hcl.DiagError, CheckSchema, "Unsupported argument", "raise"},
		{"second profile", "profile {\n}\nprofile {\n}\n", hcl.DiagError, CheckDuplicateName, "Duplicate profile block", "profile {\n}\n"},
		{"condition over an unknown variable", "depth \"a\" {\n  level = 2\n  when = \"profile.intent >= 2\"\n}\n", hcl.DiagError, CheckExpr, `Invalid condition in "when"`, "intent >= 2"},
		{"step variable in deepen", "profile {\n  deepen = \"step.status == 'failed'\"\n}\n", hcl.DiagError, CheckExpr, `Invalid condition in "deepen"`, "step."},
		{"passes above the loop", "depth \"a\" {\n  level = 1\n  max_passes = 5\n}\n", hcl.DiagWarning, CheckOutOfRange, `"max_passes" above the loop's`, "5\n"},
		{"ttl above the loop", "depth \"a\" {\n  level = 1\n  ttl = \"2m\"\n}\n", hcl.DiagWarning, CheckOutOfRange, `"ttl" above the loop's`, "\"2m\""},
		{"negative ttl", "depth \"a\" {\n  level = 1\n  ttl = \"-1s\"\n}\n", hcl.DiagError, CheckOutOfRange, `"ttl" out of range`, "\"-1s\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := loop + tt.src
			_, diags := Parse("d.hcl", []byte(src))
			require.Len(t, diags, 1, diags.Error())
			d := diags[0]
			assert.Equal(t, tt.severity, d.Severity)
			assert.Equal(t, tt.check, CheckName(d))
			assert.Contains(t, d.Summary, tt.summary)
			i := strings.LastIndex(src, tt.at)
			require.GreaterOrEqual(t, i, 0)
			assert.Equal(t, 1+strings.Count(src[:i], "\n"), d.Subject.Start.Line, "the diagnostic points at %q", tt.at)
		})
	}
}

func TestDepthBudgetAboveTheLoopRunsWithTheLoops(t *testing.T) {
	rs, diags := Parse("d.hcl", []byte("loop {\n  max_passes = 2\n  ttl = \"10s\"\n}\ndepth \"a\" {\n  level = 1\n  max_passes = 5\n  ttl = \"1m\"\n}\n"))
	require.False(t, diags.HasErrors(), diags.Error())
	require.Len(t, rs.Depths, 1)
	assert.Equal(t, 2, rs.Depths[0].MaxPasses)
	assert.Equal(t, 10*time.Second, rs.Depths[0].TTL)
}
