package rules

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
)

// prefilter is a cheap test run before a pattern: a match must contain one
// of its literals (lower case), so a query containing none of them cannot
// match and the regexp is not run. A nil prefilter always runs the regexp.
type prefilter []string

// newPrefilter derives the literals one of which every match of re
// contains; nil when re has no such set (e.g. it can match an empty string
// or only character classes).
func newPrefilter(re *regexp.Regexp) prefilter {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	return required(tree.Simplify())
}

// mayMatch reports whether lower (the query in lower case) contains one of
// the literals.
func (p prefilter) mayMatch(lower string) bool {
	if p == nil {
		return true
	}
	for _, lit := range p {
		if strings.Contains(lower, lit) {
			return true
		}
	}
	return false
}

// required returns literals one of which every match of re contains.
func required(re *syntax.Regexp) prefilter {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil
		}
		lit := re.Rune
		if re.Flags&syntax.FoldCase != 0 {
			lit = longestCaseSafe(lit)
		}
		if len(lit) == 0 {
			return nil
		}
		return prefilter{strings.ToLower(string(lit))}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		// The most selective child: the one whose shortest literal is longest.
		var best prefilter
		for _, sub := range re.Sub {
			if p := required(sub); p != nil && shortest(p) > shortest(best) {
				best = p
			}
		}
		return best
	case syntax.OpAlternate:
		var all prefilter
		for _, sub := range re.Sub {
			p := required(sub)
			if p == nil {
				return nil
			}
			for _, lit := range p {
				if !slices.Contains(all, lit) {
					all = append(all, lit)
				}
			}
		}
		return all
	}
	return nil
}

// longestCaseSafe is the longest run of runes that fold only to their own
// upper and lower case: (?i)s also matches ſ, which lower-casing does not
// turn into s, so "since" is required as "ince".
func longestCaseSafe(runes []rune) []rune {
	var best []rune
	start := 0
	for i := 0; i <= len(runes); i++ {
		if i == len(runes) || foldsBeyondCase(runes[i]) {
			if i-start > len(best) {
				best = runes[start:i]
			}
			start = i + 1
		}
	}
	return best
}

// foldsBeyondCase reports whether r case-folds to more than its upper and
// lower case (k: K, k and the Kelvin sign).
func foldsBeyondCase(r rune) bool {
	n := 0
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		n++
	}
	return n > 1
}

func shortest(p prefilter) int {
	if p == nil {
		return 0
	}
	n := len(p[0])
	for _, lit := range p[1:] {
		n = min(n, len(lit))
	}
	return n
}
