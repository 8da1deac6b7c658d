// Package cyclereport is how nous abbreviates and prints dependency cycles,
// shared by the planner (engine/graph) and `nous lint` (rules/lint), which
// find cycles with searches of their own because rules may not import
// engine. A report names at most MaxCycles cycles and MaxNodes nodes of
// each, so a generated ruleset cannot make it quadratic.
package cyclereport

import (
	"fmt"
	"strings"
)

// The limits nous reports cycles with: enough to see and fix a cycle, small
// enough that a generated ruleset cannot flood the output.
const (
	MaxCycles = 10 // cycles named in one report; the rest are counted
	MaxNodes  = 12 // nodes named per cycle, its repeated start included
)

// Keep says which nodes of a cycle of n nodes (its start not repeated) a
// report of at most keep nodes names (keep counts the repeated start and is
// at least 3): the first head and the last tail, so the edge that closes
// the cycle stays visible. head+tail == n when the cycle fits.
func Keep(n, keep int) (head, tail int) {
	keep = max(keep, 3)
	if n+1 <= keep {
		return n, 0
	}
	head = keep / 2
	return head, keep - head - 1
}

// Format joins count names, name(0) … name(count-1), with " → ", writing
// "… N more → " before name(cut) when omitted > 0 nodes were left out there.
func Format(count, cut, omitted int, name func(i int) string) string {
	var b strings.Builder
	for i := range count {
		if i > 0 {
			b.WriteString(" → ")
		}
		if i == cut && omitted > 0 {
			fmt.Fprintf(&b, "… %d more → ", omitted)
		}
		b.WriteString(name(i))
	}
	return b.String()
}
