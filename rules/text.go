package rules

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// notText reports a source that is not UTF-8 text, such as a binary given
// by mistake: parsing it would print hundreds of errors quoting raw bytes
// (terminal escapes included). It returns nil for text.
func notText(name string, src []byte) hcl.Diagnostics {
	off, what := bytes.IndexByte(src, 0), "a NUL byte"
	if off < 0 {
		if utf8.Valid(src) {
			return nil
		}
		off, what = firstInvalidUTF8(src), "an invalid UTF-8 sequence"
	}
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(src[:off], '\n')
	pos := hcl.Pos{Line: line, Column: col, Byte: off}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Not a text file",
		Detail: fmt.Sprintf("%s has %s at line %d, column %d; rules files are UTF-8 text in HCL (.hcl) or HCL JSON (.hcl.json) syntax.",
			name, what, line, col),
		Subject: &hcl.Range{Filename: name, Start: pos, End: pos},
		Extra:   Finding{Check: CheckSyntax},
	}}
}

func firstInvalidUTF8(src []byte) int {
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(src)
}

// MaxSourceSize is the largest rules file read: far above any real rules
// file, it keeps a mistaken path (/dev/zero, a disk image) from exhausting
// memory.
const MaxSourceSize = 32 << 20

// ReadSource reads a rules file of at most MaxSourceSize bytes.
func ReadSource(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadSourceFrom(name, f)
}

// ReadSourceFrom reads rules source named name (for the error) from r, at
// most MaxSourceSize bytes; it is ReadSource for standard input.
func ReadSourceFrom(name string, r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxSourceSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxSourceSize {
		return nil, &fs.PathError{Op: "read", Path: name,
			Err: fmt.Errorf("larger than %d MiB; rules files are small text files", MaxSourceSize>>20)}
	}
	return b, nil
}

// maxNesting bounds how deeply brackets may nest in a rules file. The HCL
// parsers recurse per level, and a pathological file (a million "[") would
// overflow the stack, which Go cannot recover from; real rules nest a
// handful of levels.
const maxNesting = 1000

// tooDeep reports a source whose brackets nest deeper than maxNesting,
// counting outside comments and inside the ${…} and %{…} interpolations of
// quoted strings (the parsers recurse there too), but not the text of
// strings. It returns nil otherwise.
func tooDeep(name string, src []byte) hcl.Diagnostics {
	// open holds the unclosed brackets and strings, innermost last; an
	// interpolation is a '{' inside a string.
	var open []byte
	line, col := 1, 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		col++
		if c == '\n' {
			line, col = line+1, 0
		}
		if len(open) > 0 && open[len(open)-1] == '"' {
			switch {
			case c == '\\':
				i++ // an escape; its position may drift, never the verdict
			case c == '"' || c == '\n':
				open = open[:len(open)-1]
			case c == '$' || c == '%':
				if i+1 < len(src) && src[i+1] == c {
					i++ // $${ and %%{ are escapes, not interpolations
				} else if i+1 < len(src) && src[i+1] == '{' {
					i++
					open = append(open, '{')
				}
			}
		} else {
			switch {
			case c == '#' || (c == '/' && i+1 < len(src) && src[i+1] == '/'):
				for i < len(src) && src[i] != '\n' {
					i++
				}
				i--
			case c == '/' && i+1 < len(src) && src[i+1] == '*':
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return nil
				}
				line += bytes.Count(src[i:i+2+end], []byte("\n"))
				i += end + 3
			case c == '"' || c == '[' || c == '{' || c == '(':
				open = append(open, c)
			case (c == ']' || c == '}' || c == ')') && len(open) > 0:
				open = open[:len(open)-1]
			}
		}
		if len(open) > maxNesting {
			pos := hcl.Pos{Line: line, Column: col, Byte: i}
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Nesting too deep",
				Detail:   fmt.Sprintf("%s nests brackets more than %d levels deep at line %d, column %d.", name, maxNesting, line, col),
				Subject:  &hcl.Range{Filename: name, Start: pos, End: pos},
				Extra:    Finding{Check: CheckSyntax},
			}}
		}
	}
	return nil
}

// unparseable returns the diagnostics of a source the HCL parsers must
// not be given: not text, or nested too deeply.
func unparseable(name string, src []byte) hcl.Diagnostics {
	if diags := notText(name, src); diags != nil {
		return diags
	}
	return tooDeep(name, src)
}
