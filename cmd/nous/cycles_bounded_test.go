package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFanRules writes a rules file whose intent has n hypotheses where
// h_i depends on h_{i-1} and h0 on all the others: n-1 dependency cycles,
// n²/2 steps if listed in full. At 12k it made lint use more than 6 GB
// and plan print 193 MB of warnings.
func writeFanRules(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("intent \"fan\" {\n  pattern = \"explicit\"\n  detect {\n    when = \"query contains 'fan'\"\n    confidence = 0.9\n  }\n")
	b.WriteString("  hypothesis \"h0\" {\n    description = \"first\"\n    action = \"stats\"\n    depends_on = [")
	for i := 1; i < n; i++ {
		if i > 1 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"h%d\"", i)
	}
	b.WriteString("]\n  }\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "  hypothesis \"h%d\" {\n    description = \"step %d\"\n    action = \"stats\"\n    depends_on = [\"h%d\"]\n  }\n", i, i, i-1)
	}
	b.WriteString("}\n")
	path := filepath.Join(t.TempDir(), "nous.hcl")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o600))
	return path
}

func TestLintReportsManyCyclesBounded(t *testing.T) {
	path := writeFanRules(t, 12_000)
	for _, format := range []string{"text", "json", "sarif", "junit", "github", "compact"} {
		t.Run(format, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", "lint", "--format", format, path)
			assert.Equal(t, exitFindings, code, stderr)
			assert.Less(t, len(out), 32<<10, "lint output of 11999 cycles")
			assert.Contains(t, out, "11989 more dependency cycles not listed")
			assert.Equal(t, 10, strings.Count(out, `Dependency cycle in intent`), "cycles listed")
		})
	}
}

func TestPlanReportsManyCyclesBounded(t *testing.T) {
	path := writeFanRules(t, 12_000)
	code, out, stderr := nous(t, "", "plan", "--rules", path, "--format", "json", "fan")
	require.Equal(t, exitOK, code, stderr)
	var plan struct {
		Reasoning struct {
			Hypotheses []json.RawMessage `json:"hypotheses"`
		} `json:"reasoning"`
		Diagnostics []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"diagnostics"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &plan))
	assert.Len(t, plan.Reasoning.Hypotheses, 12_000)
	var messages []string
	size := 0
	for _, d := range plan.Diagnostics {
		if d.Code == "cycle_broken" {
			messages = append(messages, d.Message)
			size += len(d.Message)
		}
	}
	require.Len(t, messages, 11, "ten cycles and the count of the others")
	assert.Equal(t, "11989 more dependency cycles broken, not listed (at most 10 are)", messages[10])
	assert.Less(t, size, 4<<10, "bytes of cycle warnings")
	for _, m := range messages[:10] {
		assert.LessOrEqual(t, strings.Count(m, "→"), 13, "nodes per cycle: %s", m)
	}
}
