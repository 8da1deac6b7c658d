package main

import (
	"io"
)

// replacement is U+FFFD, printed in place of a control character.
var replacement = []byte("\uFFFD")

// terminalSafe passes text through with control characters replaced by
// U+FFFD, except tab, newline and the carriage return of a CRLF. Records
// come from remote services: an issue title holding an escape sequence must
// not retitle, recolour, or write the clipboard of the terminal the report
// is printed on.
type terminalSafe struct{ w io.Writer }

func (t terminalSafe) Write(p []byte) (int, error) {
	if !hasControl(p) {
		return t.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		if n := controlAt(p, i); n > 0 {
			out = append(out, replacement...)
			i += n
			continue
		}
		out = append(out, p[i])
		i++
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

func hasControl(p []byte) bool {
	for i := range p {
		if controlAt(p, i) > 0 {
			return true
		}
	}
	return false
}

// controlAt returns the length of the control character at p[i], or 0:
// C0 bytes other than tab, newline and a CR before LF; DEL; and C1 controls
// (U+0080–U+009F, two bytes in UTF-8), which some terminals obey too.
func controlAt(p []byte, i int) int {
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
