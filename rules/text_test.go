package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Brackets inside a string's ${…} are parsed as an expression, recursively:
// skipping the whole string let 300k of them overflow the stack (a fatal
// error, not a diagnostic) in lint, fmt and plan.
func TestDeepNestingInsideInterpolationIsCaught(t *testing.T) {
	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	for _, tt := range []struct {
		name, src string
		line      int
	}{
		{"interp.hcl", "nous {\n  default_mode = \"${" + deep + "}\"\n}\n", 2},
		{"directive.hcl", "nous {\n  default_mode = \"%{ if " + deep + " }x%{ endif }\"\n}\n", 2},
		{"nested.hcl", "x = \"${\"${" + deep + "}\"}\"\n", 1},
		{"interp.hcl.json", `{"nous": {"default_mode": "${` + deep + `}"}}` + "\n", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse(tt.name, []byte(tt.src))
			require.Len(t, diags, 1)
			assert.Equal(t, "Nesting too deep", diags[0].Summary)
			assert.Equal(t, tt.line, diags[0].Subject.Start.Line)
		})
	}

	// Escaped interpolations are text, and text brackets do not nest.
	brackets := strings.Repeat("[", 2*maxNesting)
	for _, src := range []string{
		`x = "$${` + brackets + `"` + "\n",
		`x = "%%{` + brackets + `"` + "\n",
		`x = "\"${1}` + brackets + `"` + "\n",
	} {
		_, diags := Parse("escaped.hcl", []byte(src))
		for _, d := range diags {
			assert.NotEqual(t, "Nesting too deep", d.Summary, src[:12])
		}
	}
}
