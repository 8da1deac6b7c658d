package cond

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// prefilter is a cheap test run before a pattern: a match contains, for
// every set, one of the set's literals (case-folded by fold), so a query
// that lacks every literal of some set cannot match and the regexp is not
// run. A nil prefilter always runs the regexp.
type prefilter [][]string

// maxExact bounds the strings an exact set is expanded to.
const maxExact = 16

// newPrefilter derives the literal sets every match of the simplified
// pattern tree satisfies; nil when it has none (e.g. it can match an empty
// string or only character classes).
func newPrefilter(tree *syntax.Regexp) prefilter {
	return required(tree)
}

// screen is a prefilter arranged to reject fast: its most selective sets
// first, the one-byte literals of a set looked for in one pass.
type screen []screenSet

type screenSet struct {
	bytes string   // the set's one-byte literals
	lits  []string // the others
}

// screen returns p arranged for mayMatch.
func (p prefilter) screen() screen {
	sets := slices.Clone(p)
	slices.SortStableFunc(sets, func(a, b []string) int { return shortest(b) - shortest(a) })
	var c screen
	for _, set := range sets {
		var cs screenSet
		for _, lit := range set {
			if len(lit) == 1 {
				cs.bytes += lit
			} else {
				cs.lits = append(cs.lits, lit)
			}
		}
		c = append(c, cs)
	}
	return c
}

// mayMatch reports whether folded (the query through fold) contains a
// literal of every set.
func (c screen) mayMatch(folded string) bool {
	for _, set := range c {
		if !strings.ContainsAny(folded, set.bytes) &&
			!slices.ContainsFunc(set.lits, func(lit string) bool { return strings.Contains(folded, lit) }) {
			return false
		}
	}
	return true
}

// required returns the literal sets every match of re satisfies.
func required(re *syntax.Regexp) prefilter {
	if set, ok := exact(re, loose); ok {
		if set = necessary(set); set != nil {
			return prefilter{set}
		}
		return nil
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		// Runs of exact children concatenate ("d" then "o|id" is "do" or
		// "did"); every other child adds its own sets.
		var all prefilter
		var run []string
		flush := func() {
			if set := necessary(run); set != nil {
				all = append(all, set)
			}
			run = nil
		}
		for _, sub := range re.Sub {
			if set, ok := exact(sub, loose); ok {
				if joined, ok := cross(run, set); ok && run != nil {
					run = joined
				} else {
					flush()
					run = set
				}
				continue
			}
			flush()
			all = append(all, required(sub)...)
		}
		flush()
		return all
	case syntax.OpAlternate:
		// Each branch's most selective set; one of them holds.
		var union []string
		for _, sub := range re.Sub {
			p := required(sub)
			if p == nil {
				return nil
			}
			for _, lit := range selective(p) {
				if !slices.Contains(union, lit) {
					union = append(union, lit)
				}
			}
		}
		return prefilter{necessary(union)}
	}
	return nil
}

// exactMode is what exact may assume of the strings it returns.
type exactMode int

const (
	// loose strings over-approximate: a zero-width assertion matches ""
	// (it consumes nothing) and a case-sensitive literal is folded too (a
	// query that contains it contains its fold). For a prefilter.
	loose exactMode = iota
	// unasserted strings are loose strings of a pattern without
	// assertions: a match is one of them, though not every one matches.
	unasserted
	// caseless strings are exactly what the pattern matches, folded: it has
	// no assertions and ignores case everywhere, so a folded text matches
	// where it holds one of them.
	caseless
)

// exact returns the folded strings re matches, when they are few (at most
// maxExact), in the order leftmost-first matching prefers them.
func exact(re *syntax.Regexp, mode exactMode) ([]string, bool) {
	return exactUpTo(re, mode, maxExact)
}

// exactUpTo is exact with at most limit strings; a character class still
// spans fewer than maxExact runes a range.
func exactUpTo(re *syntax.Regexp, mode exactMode, limit int) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary,
		syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return []string{""}, mode == loose
	case syntax.OpLiteral:
		if mode == caseless && re.Flags&syntax.FoldCase == 0 && slices.ContainsFunc(re.Rune, hasCase) {
			return nil, false
		}
		return []string{fold(string(re.Rune))}, true
	case syntax.OpCharClass:
		var set []string
		for i := 0; i < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo >= maxExact || len(set) > limit {
				return nil, false
			}
			for r := lo; r <= hi; r++ {
				if mode == caseless && !foldClosed(re.Rune, r) {
					return nil, false
				}
				if s := fold(string(r)); !slices.Contains(set, s) {
					set = append(set, s)
				}
			}
		}
		return set, len(set) > 0 && len(set) <= limit
	case syntax.OpCapture:
		return exactUpTo(re.Sub[0], mode, limit)
	case syntax.OpQuest:
		set, ok := exactUpTo(re.Sub[0], mode, limit)
		if !ok || slices.Contains(set, "") {
			return set, ok
		}
		if re.Flags&syntax.NonGreedy != 0 {
			return append([]string{""}, set...), true
		}
		return append(set, ""), true
	case syntax.OpConcat:
		set := []string{""}
		for _, sub := range re.Sub {
			s, ok := exactUpTo(sub, mode, limit)
			if !ok {
				return nil, false
			}
			if set, ok = crossUpTo(set, s, limit); !ok {
				return nil, false
			}
		}
		return set, true
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			s, ok := exactUpTo(sub, mode, limit)
			if !ok {
				return nil, false
			}
			for _, x := range s {
				if !slices.Contains(set, x) {
					set = append(set, x)
				}
			}
		}
		return set, len(set) <= limit
	}
	return nil, false
}

// cross is every a followed by every b, when there are few.
func cross(a, b []string) ([]string, bool) { return crossUpTo(a, b, maxExact) }

// crossUpTo is cross with at most limit strings.
func crossUpTo(a, b []string, limit int) ([]string, bool) {
	if len(a)*len(b) > limit {
		return nil, false
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if s := x + y; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out, true
}

// necessary is set as a requirement: nil when it holds "" (nothing is
// required), without the literals that contain another of the set
// ("projects" needs no test once "project" is one).
func necessary(set []string) []string {
	if len(set) == 0 || slices.Contains(set, "") {
		return nil
	}
	var out []string
	for i, s := range set {
		covered := slices.ContainsFunc(set, func(t string) bool { return t != s && strings.Contains(s, t) })
		if !covered && !slices.Contains(set[:i], s) {
			out = append(out, s)
		}
	}
	return out
}

// selective is the set of p whose shortest literal is longest.
func selective(p prefilter) []string {
	best := p[0]
	for _, set := range p[1:] {
		if shortest(set) > shortest(best) {
			best = set
		}
	}
	return best
}

func shortest(set []string) int {
	n := len(set[0])
	for _, lit := range set[1:] {
		n = min(n, len(lit))
	}
	return n
}

// fold maps every rune to one representative of the runes (?i) takes for
// it: ASCII letters to lower case, ſ to s and the Kelvin sign to k (they
// fold to ASCII letters), any other rune to the least of its fold orbit.
// A case-sensitive literal is folded too: a query that contains it
// contains its fold.
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	return strings.Map(foldRune, s)
}

func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		return unicode.ToLower(r)
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	if least < utf8.RuneSelf {
		return unicode.ToLower(least)
	}
	return least
}

// hasCase reports whether r has other cases (folding changes what it matches).
func hasCase(r rune) bool { return unicode.SimpleFold(r) != r }

// foldClosed reports whether the character class ranges hold every case of r.
func foldClosed(ranges []rune, r rune) bool {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if !inRanges(ranges, f) {
			return false
		}
	}
	return true
}

func inRanges(ranges []rune, r rune) bool {
	for i := 0; i < len(ranges); i += 2 {
		if ranges[i] <= r && r <= ranges[i+1] {
			return true
		}
	}
	return false
}
