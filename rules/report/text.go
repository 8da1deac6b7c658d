package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
)

// writeText prints each diagnostic as a compiler would: severity, summary
// and check name, the file and line with its enclosing block, the source
// line with the problem underlined, then the detail.
func writeText(w io.Writer, in Input) error {
	bw := bufio.NewWriter(w)
	for _, d := range in.Diagnostics {
		label := "Error"
		if d.Severity == hcl.DiagWarning {
			label = "Warning"
		}
		fmt.Fprintf(bw, "%s: %s [%s]\n\n", label, d.Summary, checkOf(d))
		if s := d.Subject; s != nil {
			snippet(bw, s, in.Files[s.Filename])
		}
		if d.Detail != "" {
			fmt.Fprintf(bw, "%s\n\n", d.Detail)
		}
	}
	errs, warns := Count(in.Diagnostics)
	fmt.Fprintf(bw, "%d error(s), %d warning(s)\n", errs, warns)
	return bw.Flush()
}

// snippet prints where a range is, its first source line and a ^^^ line
// under the range (to the end of the line when the range goes further).
func snippet(w io.Writer, r *hcl.Range, f *hcl.File) {
	where := fmt.Sprintf("  on %s line %d", r.Filename, r.Start.Line)
	if f == nil {
		fmt.Fprintf(w, "%s:\n\n", where)
		return
	}
	if nav, ok := f.Nav.(interface{ ContextString(int) string }); ok {
		if ctx := nav.ContextString(r.Start.Byte); ctx != "" {
			where += ", in " + ctx
		}
	}
	fmt.Fprintf(w, "%s:\n", where)
	line := rules.SourceLine(f.Bytes, r.Start.Line)
	if line == nil {
		fmt.Fprintln(w)
		return
	}
	text := strings.Map(printable, string(line))
	prefix := fmt.Sprintf("  %d: ", r.Start.Line)
	fmt.Fprintf(w, "%s%s\n", prefix, text)
	width := utf8.RuneCountInString(text)
	start := min(max(r.Start.Column, 1), width+1)
	end := width + 1
	if r.End.Line == r.Start.Line {
		end = min(max(r.End.Column, start+1), width+1)
	}
	fmt.Fprintf(w, "%s%s\n\n", strings.Repeat(" ", utf8.RuneCountInString(prefix)+start-1), strings.Repeat("^", max(end-start, 1)))
}

// printable keeps a snippet from driving the terminal: tabs become spaces
// and control characters (an escape sequence in a string, a binary file)
// become U+FFFD, one rune for one, so the ^^^ line stays aligned.
func printable(r rune) rune {
	switch {
	case r == '\t':
		return ' '
	case unicode.IsControl(r):
		return utf8.RuneError
	}
	return r
}
