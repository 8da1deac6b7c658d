package main

import (
	"io"

	"github.com/nous-dev/nous/sdk/redact"
)

// replacement is U+FFFD, printed in place of a control character.
var replacement = []byte("\uFFFD")

// terminalSafe passes text through with control characters replaced by
// U+FFFD, except tab, newline and the carriage return of a CRLF (see
// redact.ControlLen). Records come from remote services: an issue title
// holding an escape sequence must not retitle, recolour, or write the
// clipboard of the terminal the report is printed on.
type terminalSafe struct{ w io.Writer }

func (t terminalSafe) Write(p []byte) (int, error) {
	if !hasControl(p) {
		return t.w.Write(p)
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		if n := redact.ControlLen(p, i); n > 0 {
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
		if redact.ControlLen(p, i) > 0 {
			return true
		}
	}
	return false
}
