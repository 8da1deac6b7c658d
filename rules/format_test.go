package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFormat(t *testing.T) {
	out, diags := Format("f.hcl", []byte("source \"s\" {\nplugin=\"x\"\n    priority = 10\n}\n"))
	require.Empty(t, diags)
	assert.Equal(t, "source \"s\" {\n  plugin   = \"x\"\n  priority = 10\n}\n", string(out))

	again, diags := Format("f.hcl", out)
	require.Empty(t, diags)
	assert.Equal(t, string(out), string(again), "formatting is idempotent")
}

func TestFormatRefusesBrokenSource(t *testing.T) {
	out, diags := Format("f.hcl", []byte("source \"s\" {\n  plugin =\n"))
	assert.Nil(t, out)
	require.True(t, diags.HasErrors())
	assert.Equal(t, CheckSyntax, CheckName(diags[0]))
	assert.Equal(t, "f.hcl", diags[0].Subject.Filename)
}

func TestFormatDepthBlocks(t *testing.T) {
	out, diags := Format("d.hcl", []byte("profile {\ndeepen=\"pass.need_refinement > 0\"\n    ease = \"pass.failed == 0\"\n}\ndepth \"quick\" {\nlevel=1\n  max_passes   =   1\nttl=\"30s\"\n}\n"))
	require.Empty(t, diags)
	assert.Equal(t, "profile {\n  deepen = \"pass.need_refinement > 0\"\n  ease   = \"pass.failed == 0\"\n}\ndepth \"quick\" {\n  level      = 1\n  max_passes = 1\n  ttl        = \"30s\"\n}\n", string(out))
}
