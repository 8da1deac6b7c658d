// Package cyclictest writes rules whose hypotheses form long and many
// dependency cycles, for the tests and benchmarks that check cycle reports
// stay bounded however large the rules are.
package cyclictest

import (
	"bytes"
	"fmt"
)

// Shape says how many cycles of which kind the rules hold, each kind in an
// intent of its own (declared in this order, each detected for any query).
type Shape struct {
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
func (s Shape) Cycles() int {
	n := s.Pairs
	if s.Ring > 0 {
		n++
	}
	if s.Hub > 1 {
		n += s.Hub - 1
	}
	return n
}

// Hypotheses is how many hypotheses the rules declare.
func (s Shape) Hypotheses() int { return s.Ring + 2*s.Pairs + s.Hub }

// Rules returns the rules as HCL.
func (s Shape) Rules() []byte {
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
