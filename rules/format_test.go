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
