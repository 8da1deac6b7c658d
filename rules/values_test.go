package rules

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A null inside a list survives the conversion to a list type; reading it
// as a string or number panicked ("value is null") and crashed lint.
func TestNullListElementIsATypeError(t *testing.T) {
	for _, tc := range []struct {
		name, src, attr string
	}{
		{"string list", `entity "e" { patterns = ["a", null] }`, `"patterns"`},
		{"number list", `mode "m" { compare = [1, null] }`, `"compare"`},
		{"map of string lists", `intent "i" {
  hypothesis "h" { action = "retrieve" }
  retrieve "r" {
    source   = "s"
    defaults = { projects = ["a", null] }
  }
}
source "s" { plugin = "builtin:file" }`, `"defaults"`},
		{"test object list", `test "t" {
  input { query = "q" }
  expect { hypotheses = [{ id = "h0", dependencies = [null] }] }
}`, `"hypotheses"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var diags []string
			require.NotPanics(t, func() {
				_, ds := Parse("r.hcl", []byte(tc.src))
				for _, d := range ds {
					if d.Severity == hcl.DiagError {
						diags = append(diags, CheckName(d)+": "+d.Summary)
					}
				}
			})
			assert.Equal(t, []string{CheckType + ": Invalid value for " + tc.attr}, diags)
		})
	}
}
