package lint

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fanRules is an intent of n hypotheses where h_i depends on h_{i-1} and h0
// depends on all the others: n-1 cycles of lengths 2..n, n²/2 edges if
// listed in full (the shape that made lint use more than 6 GB at 12k).
func fanRules(n int) []byte {
	var b strings.Builder
	b.WriteString("intent \"fan\" {\n  pattern = \"explicit\"\n")
	b.WriteString("  hypothesis \"h0\" {\n    description = \"first\"\n    action = \"stats\"\n    depends_on = [")
	for i := 1; i < n; i++ {
		if i > 1 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", fmt.Sprintf("h%d", i))
	}
	b.WriteString("]\n  }\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "  hypothesis \"h%d\" {\n    description = \"step %d\"\n    action = \"stats\"\n    depends_on = [\"h%d\"]\n  }\n", i, i, i-1)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// ringRules is one intent whose n hypotheses form a single n-node cycle.
func ringRules(n int) []byte {
	var b strings.Builder
	b.WriteString("intent \"ring\" {\n  pattern = \"explicit\"\n")
	for i := range n {
		fmt.Fprintf(&b, "  hypothesis \"h%d\" {\n    description = \"step %d\"\n    action = \"stats\"\n    depends_on = [\"h%d\"]\n  }\n", i, i, (i+n-1)%n)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

func TestCyclesReportIsBounded(t *testing.T) {
	tests := []struct {
		name     string
		src      []byte
		listed   int
		unlisted string // summary of the count diagnostic, "" when none
		longest  string // the summary of the cycle listing the most nodes
	}{
		{name: "12k hypotheses, 11999 cycles", src: fanRules(12_000), listed: 10, unlisted: "11989 more dependency cycles not listed",
			longest: `Dependency cycle in intent "fan": h0 → h1 → h2 → h3 → h4 → h5 → h6 → h7 → h8 → h9 → h10 → h0`},
		{name: "one cycle through 12k hypotheses", src: ringRules(12_000), listed: 1,
			longest: `Dependency cycle in intent "ring": h0 → h1 → h2 → h3 → h4 → h5 → … 11989 more → h11995 → h11996 → h11997 → h11998 → h11999 → h0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Greater(t, len(tt.src), 500_000, "the generated file is as large as the one reported")
			rs, diags := rules.Parse("fan.hcl", tt.src)
			require.False(t, diags.HasErrors(), diags.Error())
			got := cycles(rs)
			var listed []*hcl.Diagnostic
			unlisted := ""
			for _, d := range got {
				if strings.HasPrefix(d.Summary, "Dependency cycle") {
					listed = append(listed, d)
				} else {
					unlisted = d.Summary
				}
			}
			assert.Len(t, listed, tt.listed)
			assert.Equal(t, tt.unlisted, unlisted)
			longest := ""
			for _, d := range listed {
				if len(d.Summary) > len(longest) {
					longest = d.Summary
				}
				assert.LessOrEqual(t, strings.Count(d.Detail, "\n  "), 12, "edges listed per cycle")
			}
			assert.Equal(t, tt.longest, longest)

			for _, format := range report.Formats {
				var out bytes.Buffer
				require.NoError(t, report.Write(&out, format, report.Input{Diagnostics: got, Files: rs.Files()}))
				assert.Less(t, out.Len(), 32<<10, "%s report of the cycles", format)
			}
		})
	}
}

// BenchmarkCycles12k lints the cycles of the 12k-hypothesis fan; before
// the report limits it listed 72M edges.
func BenchmarkCycles12k(b *testing.B) {
	rs, diags := rules.Parse("fan.hcl", fanRules(12_000))
	require.False(b, diags.HasErrors(), diags.Error())
	b.ReportAllocs()
	for b.Loop() {
		cycles(rs)
	}
}
