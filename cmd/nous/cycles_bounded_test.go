package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine/graph"
	"github.com/nous-dev/nous/engine/render"
	"github.com/nous-dev/nous/rules/report"
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

// TestCycleOutputIsBoundedInEveryFormat runs `nous lint` and `nous plan` in
// every format on rules with a 12k-hypothesis ring, 1k two-node cycles and
// 300 overlapping ones in three intents: each names graph.ReportLimits().Cycles
// cycles in a few KiB and counts the rest exactly.
func TestCycleOutputIsBoundedInEveryFormat(t *testing.T) {
	shape := cyclicShape{Ring: 12_000, Pairs: 1_000, Hub: 300}
	path := filepath.Join(t.TempDir(), "cycles.hcl")
	require.NoError(t, os.WriteFile(path, shape.Rules(), 0o600))
	more := fmt.Sprintf("%d more dependency cycles", shape.Cycles()-graph.ReportLimits().Cycles)

	for _, format := range report.Formats {
		t.Run("lint "+format, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", "lint", "--format", format, path)
			assert.Equal(t, exitFindings, code, stderr)
			assert.Less(t, len(out)+len(stderr), 64<<10)
			assert.Contains(t, out, more+" not listed")
			assert.Contains(t, out, "r5 → … 11989 more → r11995")
		})
	}
	for _, format := range render.Formats {
		t.Run("plan "+format, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", "--rules", path, "plan", "--format", format, "why")
			assert.Equal(t, 0, code, stderr)
			assert.Less(t, len(stderr), 4<<10)
			var cycleText, lines int
			for line := range strings.Lines(out) {
				if strings.Contains(line, "dependency cycle") {
					cycleText += len(line)
					lines++
				}
			}
			assert.Less(t, cycleText, 64<<10)
			if format == "json" || format == "text" { // the formats that show diagnostics
				assert.Equal(t, graph.ReportLimits().Cycles+1, lines)
				assert.Contains(t, out, more+" broken, not listed")
				assert.Contains(t, out, "h5 → … 11989 more → h11995")
			}
		})
	}
}

// cyclicShape says how many cycles of which kind the rules hold, each kind in an
// intent of its own (declared in this order, each detected for any query).
type cyclicShape struct {
	// Ring is the length of one cycle r0 → r1 → … → r0 (chain pattern,
	// r0 depends_on the last); 0 for none.
	Ring int
	// Pairs is how many two-node cycles a_i ⇄ b_i there are.
	Pairs int
	// Hub is how many hypotheses a chain has whose first depends on all the
	// others, so there are Hub-1 overlapping cycles of lengths 2 … Hub: the
	// shape whose reports grew quadratically.
	Hub int
}

// Cycles is how many cycles a depth-first search finds, one per edge that
// closes a cycle.
func (s cyclicShape) Cycles() int {
	n := s.Pairs
	if s.Ring > 0 {
		n++
	}
	if s.Hub > 1 {
		n += s.Hub - 1
	}
	return n
}

// Rules returns the rules as HCL.
func (s cyclicShape) Rules() []byte {
	var b bytes.Buffer
	intent := func(name, pattern string) {
		fmt.Fprintf(&b, "intent %q {\n  pattern = %q\n  detect {\n    when       = \"len(query) > 0\"\n    confidence = 0.9\n  }\n", name, pattern)
	}
	hyp := func(name string, deps ...string) {
		fmt.Fprintf(&b, "  hypothesis %q {\n    description = \"Check %s\"\n", name, name)
		if len(deps) > 0 {
			b.WriteString("    depends_on  = [")
			for i, d := range deps {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%q", d)
			}
			b.WriteString("]\n")
		}
		b.WriteString("  }\n")
	}
	if s.Ring > 0 {
		intent("ring", "chain")
		hyp("r0", fmt.Sprintf("r%d", s.Ring-1))
		for i := 1; i < s.Ring; i++ {
			hyp(fmt.Sprintf("r%d", i))
		}
		b.WriteString("}\n")
	}
	if s.Pairs > 0 {
		intent("pairs", "explicit")
		for i := range s.Pairs {
			a, z := fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)
			hyp(a, z)
			hyp(z, a)
		}
		b.WriteString("}\n")
	}
	if s.Hub > 0 {
		intent("hub", "chain")
		deps := make([]string, 0, s.Hub-1)
		for i := 1; i < s.Hub; i++ {
			deps = append(deps, fmt.Sprintf("s%d", i))
		}
		hyp("s0", deps...)
		for i := 1; i < s.Hub; i++ {
			hyp(fmt.Sprintf("s%d", i))
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}
