package cond

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// literalPositions maps each rune of a string literal's decoded value to the
// position of its first source byte in the HCL file, plus one final entry
// for the end of the value. It understands native quoted strings (with
// their escapes), heredocs (plain and indented), and JSON strings. It
// returns ok=false when the source does not decode to value, so callers fall
// back to the literal's range.
func literalPositions(src []byte, rng hcl.Range, value string) (positions []hcl.Pos, ok bool) {
	if rng.Start.Byte < 0 || rng.End.Byte > len(src) || rng.Start.Byte >= rng.End.Byte {
		return nil, false
	}
	raw := src[rng.Start.Byte:rng.End.Byte]
	c := cursor{src: raw, pos: rng.Start}
	switch {
	case raw[0] == '"':
		if len(raw) < 2 || raw[len(raw)-1] != '"' {
			return nil, false
		}
		c.end = len(raw) - 1
		c.advance(1)
		positions, ok = c.quoted()
	case bytes.HasPrefix(raw, []byte("<<")):
		nl := bytes.IndexByte(raw, '\n')
		last := bytes.LastIndexByte(bytes.TrimRight(raw, " \t\r\n"), '\n')
		if nl < 0 || last < nl {
			return nil, false
		}
		c.end = last + 1
		c.advance(nl + 1)
		positions, ok = c.heredoc(value)
	default:
		return nil, false
	}
	if !ok || c.out.String() != value || len(positions) != utf8.RuneCountInString(value)+1 {
		return nil, false
	}
	return positions, true
}

// cursor walks raw source bytes, keeping the hcl.Pos of the next byte.
type cursor struct {
	src []byte
	i   int
	end int
	pos hcl.Pos
	out strings.Builder
}

// advance moves over n bytes, counting lines and (rune) columns.
func (c *cursor) advance(n int) {
	for stop := c.i + n; c.i < stop && c.i < len(c.src); {
		r, size := utf8.DecodeRune(c.src[c.i:])
		c.i += size
		c.pos.Byte += size
		if r == '\n' {
			c.pos.Line++
			c.pos.Column = 1
		} else {
			c.pos.Column++
		}
	}
}

// quoted decodes a quoted string body, recording one position per decoded rune.
func (c *cursor) quoted() ([]hcl.Pos, bool) {
	// A value has at most as many runes as its source has bytes.
	positions := make([]hcl.Pos, 0, c.end-c.i+1)
	c.out.Grow(c.end - c.i)
	for c.i < c.end {
		start := c.pos
		rest := c.src[c.i:c.end]
		switch {
		case rest[0] == '\\':
			r, n, ok := unescape(rest)
			if !ok {
				return nil, false
			}
			positions = append(positions, start)
			c.out.WriteRune(r)
			c.advance(n)
		case bytes.HasPrefix(rest, []byte("$${")) || bytes.HasPrefix(rest, []byte("%%{")):
			positions = append(positions, start)
			c.out.WriteByte(rest[0])
			c.advance(2)
			positions = append(positions, c.pos)
			c.out.WriteByte('{')
			c.advance(1)
		default:
			r, size := utf8.DecodeRune(rest)
			positions = append(positions, start)
			c.out.WriteRune(r)
			c.advance(size)
		}
	}
	return append(positions, c.pos), true
}

// unescape decodes one backslash escape of HCL native or JSON syntax.
func unescape(s []byte) (r rune, n int, ok bool) {
	if len(s) < 2 {
		return 0, 0, false
	}
	switch s[1] {
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case '"', '\\', '/':
		return rune(s[1]), 2, true
	case 'u', 'U':
		digits := 4
		if s[1] == 'U' {
			digits = 8
		}
		if len(s) < 2+digits {
			return 0, 0, false
		}
		v, err := strconv.ParseUint(string(s[2:2+digits]), 16, 32)
		if err != nil {
			return 0, 0, false
		}
		r := rune(v)
		// A JSON surrogate pair is two \u escapes for one rune.
		if r >= 0xD800 && r < 0xDC00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if lo, err := strconv.ParseUint(string(s[8:12]), 16, 32); err == nil {
				return 0x10000 + (r-0xD800)<<10 + (rune(lo) - 0xDC00), 12, true
			}
		}
		return r, 2 + digits, true
	}
	return 0, 0, false
}

// heredoc maps a heredoc body: each value line is a suffix of its source
// line (indented heredocs strip leading spaces), so positions follow.
func (c *cursor) heredoc(value string) ([]hcl.Pos, bool) {
	positions := make([]hcl.Pos, 0, utf8.RuneCountInString(value)+1)
	c.out.Grow(len(value))
	lines := strings.SplitAfter(value, "\n")
	for _, line := range lines {
		if line == "" {
			continue
		}
		nl := bytes.IndexByte(c.src[c.i:c.end], '\n')
		if nl < 0 {
			return nil, false
		}
		srcLine := c.src[c.i : c.i+nl+1]
		if !bytes.HasSuffix(srcLine, []byte(line)) {
			return nil, false
		}
		c.advance(len(srcLine) - len(line))
		for _, r := range line {
			positions = append(positions, c.pos)
			c.out.WriteRune(r)
			c.advance(utf8.RuneLen(r))
		}
	}
	return append(positions, c.pos), true
}
