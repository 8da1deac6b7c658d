package rules

import (
	"slices"
	"strings"
)

// Extract appends to dst the entity's values found in query and returns the
// extended slice. A pattern's value is its first capture group when that
// group matched, else the whole match, trimmed of spaces; empty values, the
// Ignore list (case-insensitive) and values already appended by this call are
// dropped, so values keep first-seen order without duplicates.
func (e *Entity) Extract(query string, dst []string) []string {
	if query == "" {
		return dst
	}
	start := len(dst)
	for _, re := range e.Patterns {
		for _, m := range re.FindAllStringSubmatchIndex(query, -1) {
			lo, hi := m[0], m[1]
			if len(m) >= 4 && m[2] >= 0 && m[3] > m[2] {
				lo, hi = m[2], m[3]
			}
			v := strings.TrimSpace(query[lo:hi])
			if v != "" && !e.ignored(v) && !slices.Contains(dst[start:], v) {
				dst = append(dst, v)
			}
		}
	}
	return dst
}

func (e *Entity) ignored(v string) bool {
	for _, x := range e.Ignore {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}
