package rules

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
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
		return prefilter{strings.ToLower(string(re.Rune))}
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
