package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
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
	line := SourceLine(f.Bytes, r.Start.Line)
	if line == nil {
		fmt.Fprintln(w)
		return
	}
	text := []rune(strings.Map(printable, string(line)))
	width := len(text)
	start := min(max(r.Start.Column, 1), width+1)
	end := width + 1
	if r.End.Line == r.Start.Line {
		end = min(max(r.End.Column, start+1), width+1)
	}
	text, start, end = window(text, start, end)
	prefix := fmt.Sprintf("  %d: ", r.Start.Line)
	fmt.Fprintf(w, "%s%s\n", prefix, string(text))
	fmt.Fprintf(w, "%s%s\n\n", strings.Repeat(" ", utf8.RuneCountInString(prefix)+start-1), strings.Repeat("^", max(end-start, 1)))
}

// snippetWidth is the most of a source line a snippet shows: a generated
// file can put a whole list on one line, and every diagnostic on it would
// print the line again.
const snippetWidth = 160

// window cuts a long line to snippetWidth runes around the columns
// start..end (1-based, end exclusive), marking cuts with "…", and returns the
// columns in the cut line.
func window(text []rune, start, end int) ([]rune, int, int) {
	if len(text) <= snippetWidth {
		return text, start, end
	}
	lo := max(start-1-snippetWidth/4, 0)
	hi := min(lo+snippetWidth, len(text))
	lo = max(hi-snippetWidth, 0)
	cut := make([]rune, 0, snippetWidth+2)
	shift := lo
	if lo > 0 {
		cut = append(cut, '…')
		shift--
	}
	cut = append(cut, text[lo:hi]...)
	if hi < len(text) {
		cut = append(cut, '…')
	}
	start = min(start-shift, len(cut)+1)
	end = min(max(end-shift, start+1), len(cut)+1)
	return cut, start, end
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
