package file

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// maxRow bounds one row: a JSON-lines line, a JSON value, a CSV record. A
// file without newlines, or one huge value, fails at the limit instead of
// filling memory.
const maxRow = 16 << 20

// rowReader is what every decoder reads a file through. It refuses to read
// more than limit bytes past the start of the current row, stops when the
// fetch's context ends, and keeps the bytes since the last line-counted
// offset so a decoder that reads ahead can still say which line a row
// starts on.
type rowReader struct {
	ctx   context.Context
	r     io.Reader
	name  string
	limit int64
	lines bool // keep bytes for lineAt and valueStart

	read  int64 // bytes read so far
	start int64 // offset of the current row

	buf  []byte // buf[head:] are the bytes from offset base on (when lines is set)
	head int
	base int64
	line int // line at offset base

	err error // the limit or the context, once reading stopped for it
}

// newRowReader reads r, the file name, at most limit bytes past a row's start.
func newRowReader(ctx context.Context, name string, r io.Reader, limit int64, lines bool) *rowReader {
	return &rowReader{ctx: ctx, r: r, name: name, limit: limit, lines: lines, line: 1}
}

// errRowTooLong is the error of a row over the limit; rowReader.failure
// says which row.
var errRowTooLong = errors.New("row over the limit")

// Read reads at most up to one byte past the limit of the current row.
func (r *rowReader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if err := r.ctx.Err(); err != nil {
		r.err = err
		return 0, err
	}
	room := r.start + r.limit + 1 - r.read
	if room <= 0 {
		r.err = errRowTooLong
		return 0, r.err
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := r.r.Read(p)
	if r.lines && n > 0 {
		if r.head > 0 && len(r.buf)+n > cap(r.buf) {
			// Reuse the array rather than let append copy into a new one.
			r.buf = r.buf[:copy(r.buf, r.buf[r.head:])]
			r.head = 0
		}
		r.buf = append(r.buf, p[:n]...)
	}
	r.read += int64(n)
	return n, err
}

// startRow says the current row starts at off: the limit counts from there.
func (r *rowReader) startRow(off int64) { r.start = off }

// lineAt is the 1-based line of offset off, which is at or after the
// offset of the previous call; the bytes before off are let go.
func (r *rowReader) lineAt(off int64) int {
	win := r.kept(off)
	k := len(r.buf) - r.head - len(win)
	r.line += bytes.Count(r.buf[r.head:r.head+k], []byte{'\n'})
	r.head += k
	r.base += int64(k)
	return r.line
}

// valueStart is the offset of the first byte at or after off that is not
// JSON whitespace or an array comma, or the end of what was read.
func (r *rowReader) valueStart(off int64) int64 {
	win := r.kept(off)
	end := r.base + int64(len(r.buf)-r.head)
	for i, c := range win {
		if c != ',' && !isJSONSpace(c) {
			return end - int64(len(win)) + int64(i)
		}
	}
	return end
}

// kept is the bytes read from off on, off clamped to what is kept.
func (r *rowReader) kept(off int64) []byte {
	win := r.buf[r.head:]
	off = min(max(off, r.base), r.base+int64(len(win)))
	return win[off-r.base:]
}

// failure is the error that stopped reading, for the row starting at off
// on line, or nil when reading did not stop for the limit or the context.
func (r *rowReader) failure(line int, off int64) error {
	switch {
	case r.err == nil:
		return nil
	case errors.Is(r.err, errRowTooLong):
		return fmt.Errorf("%s:%d: the row at byte offset %d is longer than %d bytes, the limit of one row, JSON value or CSV record: %w",
			r.name, line, off, r.limit, errRowTooLong)
	}
	return fmt.Errorf("%s: stopped at byte offset %d: %w", r.name, r.read, r.err)
}
