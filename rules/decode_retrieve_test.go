package rules

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docsIntent is an intent with a documentation retrieval; %s is the
// retrieve block's extra attributes.
const docsIntent = `source "docs" { plugin = "builtin:file" }
intent "request_help" {
  hypothesis "docs" { action = "retrieve" }
  retrieve "docs" {
    source = "docs"
%s
  }
}
`

func TestRetrieveKindRequiredRank(t *testing.T) {
	rs, diags := Parse("r.hcl", []byte(fmt.Sprintf(docsIntent, "    kind     = \"document\"\n    required = false\n    rank     = true\n")))
	require.Empty(t, diags, diags.Error())
	r := rs.Intents[0].Retrievals[0]
	assert.Equal(t, "document", r.Kind)
	assert.True(t, r.Optional)
	assert.True(t, r.Rank)

	rs, diags = Parse("r.hcl", []byte(fmt.Sprintf(docsIntent, "")))
	require.Empty(t, diags, diags.Error())
	r = rs.Intents[0].Retrievals[0]
	assert.Equal(t, "", r.Kind, "the source's default kind")
	assert.False(t, r.Optional, "required unless it says otherwise")
	assert.False(t, r.Rank)
}

func TestRetrieveRankIgnoreAndWeights(t *testing.T) {
	rs, diags := Parse("r.hcl", []byte(fmt.Sprintf(docsIntent, "    rank = true\n    rank_ignore = [\"use\", \"docs\"]\n    rank_weights = { \"CHANGELOG*\" = 0.3, \"*/RelNotes/*\" = 0 }\n")))
	require.Empty(t, diags, diags.Error())
	r := rs.Intents[0].Retrievals[0]
	assert.Equal(t, []string{"use", "docs"}, r.RankIgnore)
	assert.Equal(t, map[string]float64{"CHANGELOG*": 0.3, "*/RelNotes/*": 0}, r.RankWeights)
}

func TestRetrieveAttributeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, attrs, check, summary string
	}{
		{"kind not a word", `    kind = "Issue Records"`, CheckInvalidValue, `Invalid "kind"`},
		{"required not a bool", `    required = "no"`, CheckType, `Invalid value for`},
		{"rank not a bool", `    rank = 1`, CheckType, `Invalid value for`},
		{"rank_ignore not a list", `    rank_ignore = { use = 1 }`, CheckType, `Invalid value for`},
		{"rank weight above 1", `    rank_weights = { "CHANGELOG*" = 2 }`, CheckOutOfRange, `Rank weight of "CHANGELOG*" out of range`},
		{"rank weight not a number", `    rank_weights = { "CHANGELOG*" = "low" }`, CheckType, `Invalid value for`},
		{"rank weight glob malformed", `    rank_weights = { "[CHANGELOG" = 0.5 }`, CheckInvalidValue, `Invalid glob "[CHANGELOG"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Parse("r.hcl", []byte(fmt.Sprintf(docsIntent, tc.attrs)))
			require.True(t, diags.HasErrors(), "want an error")
			d := diags[0]
			assert.Equal(t, hcl.DiagError, d.Severity)
			assert.Equal(t, tc.check, CheckName(d))
			assert.Contains(t, d.Summary, tc.summary)
			assert.Equal(t, 6, d.Subject.Start.Line, "positioned at the attribute")
		})
	}
}

func TestTestCaseAction(t *testing.T) {
	src := `test "t" {
  input { query = "x" }
  expect {
    hypotheses = [{ id = "h0", action = "effect" }, { id = "h1", action = "launch" }]
  }
}
`
	rs, diags := Parse("t.hcl", []byte(src))
	require.True(t, diags.HasErrors())
	assert.Equal(t, CheckInvalidValue, CheckName(diags[0]))
	assert.Contains(t, diags[0].Detail, `action "launch" is none of retrieve, filter, rank, aggregate, stats, agent, effect`)
	require.Len(t, rs.Tests, 1)
	assert.Equal(t, "effect", rs.Tests[0].Expect.Hypotheses[0].Action)
}
