package report

import (
	"bufio"
	"fmt"
	"io"
)

// writeCompact prints one line per diagnostic: file:line:col: severity: check: summary.
func writeCompact(w io.Writer, in Input) error {
	bw := bufio.NewWriter(w)
	for _, d := range in.Diagnostics {
		l := locate(d)
		fmt.Fprintf(bw, "%s:%d:%d: %s: %s: %s\n", l.file, l.line, l.column, severity(d), checkOf(d), d.Summary)
	}
	return bw.Flush()
}
