// Package jsonindent writes JSON as nous prints it: two-space indented,
// without HTML escaping, ending in a newline. It writes the bytes of a
// json.Encoder with SetIndent("", "  ") and SetEscapeHTML(false), in about
// half the time: encoding/json indents by running its validating scanner
// over every byte of JSON it has just written. A Writable value (the plan)
// writes its own JSON through a Writer, without reflection, in a third of
// that.
package jsonindent

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// Encode writes v to w as indented JSON ending in a newline. A Writable
// writes its own JSON, without reflection.
func Encode(w io.Writer, v any) error {
	bufs := buffers.Get().(*buffer)
	defer bufs.release()
	if wv, ok := v.(Writable); ok {
		bufs.writer = Writer{buf: bufs.indented[:cap(bufs.indented)], indent: true}
		wv.WriteJSON(&bufs.writer)
		bufs.indented = append(bufs.writer.bytes(), '\n')
		bufs.writer.buf = nil
		if err := bufs.writer.err; err != nil {
			return err
		}
		_, err := w.Write(bufs.indented)
		return err
	}
	bufs.compact.Reset()
	enc := json.NewEncoder(&bufs.compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	bufs.indented = indent(bufs.indented[:0], bufs.compact.Bytes(), 0)
	_, err := w.Write(bufs.indented)
	return err
}

// buffer is the scratch space of one JSON call, reused across calls.
type buffer struct {
	compact  bytes.Buffer
	indented []byte
	writer   Writer // a Writable's, appending to indented
}

var buffers = sync.Pool{New: func() any { return new(buffer) }}

// maxPooled bounds the buffers kept for reuse: a rare huge value's are
// left to the collector.
const maxPooled = 1 << 20

func (b *buffer) release() {
	if b.compact.Cap() <= maxPooled && cap(b.indented) <= maxPooled {
		buffers.Put(b)
	}
}

// indent appends src, JSON as encoding/json writes it (no space outside
// strings), to dst indented by two spaces a level as json.Indent does:
// "key": value, and an empty object or array kept as {} or [], as if
// src were nested depth levels deep. json.Indent runs its validating
// scanner over every byte; src is valid.
func indent(dst, src []byte, depth int) []byte {
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			end := stringEnd(src, i)
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			dst = newline(dst, depth)
		case '}', ']':
			depth--
			dst = newline(dst, depth)
			dst = append(dst, c)
		case ',':
			dst = newline(append(dst, c), depth)
		case ':':
			dst = append(dst, c, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// stringEnd returns the index just past the JSON string starting at
// src[start], its opening quote.
func stringEnd(src []byte, start int) int {
	i := start + 1
	for {
		q := bytes.IndexByte(src[i:], '"')
		if q < 0 {
			return len(src)
		}
		i += q
		backslashes := 0
		for j := i - 1; j > start && src[j] == '\\'; j-- {
			backslashes++
		}
		i++
		if backslashes%2 == 0 {
			return i
		}
	}
}

// newline appends a line break and the indentation of depth.
func newline(dst []byte, depth int) []byte {
	if n := 1 + 2*depth; n <= len(newlines) {
		return append(dst, newlines[:n]...)
	}
	dst = append(dst, newlines...)
	for range depth - (len(newlines)-1)/2 {
		dst = append(dst, ' ', ' ')
	}
	return dst
}

// newlines is a line break and the indentation of the first 16 levels.
const newlines = "\n                                "
