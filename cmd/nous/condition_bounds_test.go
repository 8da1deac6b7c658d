package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLintStopsAConditionThatWouldExhaustMemory lints the condition of
// issue 9: constant, so it is evaluated at load, and it doubles a 16-byte
// string 28 times (4 GiB). It made lint die with "fatal error: out of
// memory"; now the evaluation stops at the byte limit and lint reports the
// sub-expression that reached it and the limit.
func TestLintStopsAConditionThatWouldExhaustMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bomb.hcl")
	src := "intent \"bomb\" {\n  detect {\n    when = \"len(reduce(1..28, #acc + #acc, 'abcdefghijklmnop')) > 0\"\n  }\n}\n"
	require.NoError(t, os.WriteFile(path, []byte(src), 0o600))
	code, out, stderr := runCLI(t, "", "lint", "--format", "compact", path)
	assert.Equal(t, exitFindings, code, stderr)
	assert.Contains(t, out, "bomb.hcl:3:36: error:", "the + of #acc + #acc")

	code, out, stderr = runCLI(t, "", "lint", path)
	assert.Equal(t, exitFindings, code, stderr)
	assert.Contains(t, out, "exceeds the limit of 16777216 bytes for one condition evaluation")
}
