package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nous-dev/nous/cmd/nous/internal/cyclictest"
	"github.com/nous-dev/nous/engine/render"
	"github.com/nous-dev/nous/rules/cyclereport"
	"github.com/nous-dev/nous/rules/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCycleOutputIsBoundedInEveryFormat runs `nous lint` and `nous plan` in
// every format on rules with a 12k-hypothesis ring, 1k two-node cycles and
// 300 overlapping ones in three intents: each names cyclereport.MaxCycles
// cycles in a few KiB and counts the rest exactly.
func TestCycleOutputIsBoundedInEveryFormat(t *testing.T) {
	shape := cyclictest.Shape{Ring: 12_000, Pairs: 1_000, Hub: 300}
	path := filepath.Join(t.TempDir(), "cycles.hcl")
	require.NoError(t, os.WriteFile(path, shape.Rules(), 0o600))
	more := fmt.Sprintf("%d more dependency cycles", shape.Cycles()-cyclereport.MaxCycles)

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
				assert.Equal(t, cyclereport.MaxCycles+1, lines)
				assert.Contains(t, out, more+" broken, not listed")
				assert.Contains(t, out, "h5 → … 11989 more → h11995")
			}
		})
	}
}
