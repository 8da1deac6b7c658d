// Package text holds the small string helpers the agent plugins share to
// put record text into prompts and reports.
package text

import (
	"strings"
	"unicode/utf8"
)

// OneLine collapses all whitespace to single spaces, so a value cannot
// break the line structure (Markdown, a prompt's record list) it lands in.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Clip shortens s to at most n runes, marking the cut with "…".
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
