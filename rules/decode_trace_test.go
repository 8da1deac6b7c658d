package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReasoningTraceBlock(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
		check     string // the diagnostic expected, "" for none
		line      int
	}{
		{"default on", "", true, "", 0},
		{"off", "reasoning_trace {\n  enabled = false\n}\n", false, "", 0},
		{"on", "reasoning_trace {\n  enabled = true\n}\n", true, "", 0},
		{"not a bool", "reasoning_trace {\n  enabled = \"maybe\"\n}\n", true, CheckType, 2},
		{"unknown attribute", "reasoning_trace {\n  enable = false\n}\n", true, CheckSchema, 2},
		{"second block", "reasoning_trace {}\nreasoning_trace { enabled = false }\n", true, CheckDuplicateName, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags := Parse("trace.hcl", []byte(tt.src))
			require.NotNil(t, rs)
			assert.Equal(t, tt.want, rs.Trace.Enabled)
			if tt.check == "" {
				assert.Empty(t, diags)
				return
			}
			require.Len(t, diags, 1, diags.Error())
			assert.Equal(t, tt.check, CheckName(diags[0]))
			assert.Equal(t, tt.line, diags[0].Subject.Start.Line)
		})
	}
}
