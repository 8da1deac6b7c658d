package redact

import (
	"strings"
	"unicode/utf8"
)

// ControlLen returns the length of the control character at p[i], or 0 for
// anything else and for tab, newline and the CR of a CRLF, which text may
// hold: C0 bytes, DEL, and C1 controls (U+0080–U+009F, two bytes in UTF-8),
// which some terminals obey too. Text from remote services passes through
// it before a terminal sees it: an escape sequence in an issue title must
// not retitle, recolour or write the clipboard of the terminal.
func ControlLen(p []byte, i int) int {
	switch c := p[i]; {
	case c == '\t' || c == '\n':
		return 0
	case c == '\r':
		if i+1 < len(p) && p[i+1] == '\n' {
			return 0
		}
		return 1
	case c < 0x20 || c == 0x7f:
		return 1
	case c == 0xc2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
		return 2
	}
	return 0
}

// OneLine returns s as one line of plain text: CR, LF, tab and the Unicode
// line and paragraph separators become a space, other control characters
// U+FFFD. A record's id, title, author or URL goes through it, so a value
// holding "\n## Heading" cannot start a line of its own in a report.
func OneLine(s string) string {
	clean := true
	for _, r := range s {
		if isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || r == '\u2028' || r == '\u2029':
			return ' '
		case isControl(r):
			return utf8.RuneError
		}
		return r
	}, s)
}

// isControl reports whether r is a C0 or C1 control, DEL, or a Unicode line
// or paragraph separator.
func isControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == '\u2028' || r == '\u2029'
}
