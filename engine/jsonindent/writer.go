package jsonindent

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Writable is a value that writes its own JSON through a Writer, the bytes
// encoding/json would write for it. Encode uses it instead of reflection.
type Writable interface {
	WriteJSON(w *Writer)
}

// Writer appends JSON to a byte slice as encoding/json writes it without
// HTML escaping: compact, or indented as Encode indents. The caller writes
// a key before each value of an object; the Writer places the commas,
// colons and line breaks, and keeps an empty object or array as {} or [].
type Writer struct {
	// buf[:n] is what was written. The length apart from the slice keeps
	// the hot path from storing a pointer (under a write barrier while the
	// collector marks): buf is stored only when it grows.
	buf    []byte
	n      int
	indent bool
	depth  int
	first  bool // the open object or array has no element yet
	keyed  bool // a key was written: the next value is its value
	err    error
}

// NewWriter returns a Writer appending to b, indented or compact.
func NewWriter(b []byte, indented bool) *Writer {
	return &Writer{buf: b[:cap(b)], n: len(b), indent: indented}
}

// Bytes returns what was written, and the first error (a float JSON
// cannot represent).
func (w *Writer) Bytes() ([]byte, error) { return w.bytes(), w.err }

func (w *Writer) bytes() []byte { return w.buf[:w.n] }

// set records b, bytes() with more appended.
func (w *Writer) set(b []byte) {
	if cap(b) != cap(w.buf) || cap(b) > 0 && &b[:1][0] != &w.buf[:1][0] {
		w.buf = b[:cap(b)] // it grew
	}
	w.n = len(b)
}

// Key writes an object key; the next value written is its value.
func (w *Writer) Key(k string) {
	w.element()
	b := append(AppendString(w.bytes(), k), ':')
	if w.indent {
		b = append(b, ' ')
	}
	w.set(b)
	w.keyed = true
}

// BeginObject opens an object.
func (w *Writer) BeginObject() { w.open('{') }

// EndObject closes the open object.
func (w *Writer) EndObject() { w.close('}') }

// BeginArray opens an array.
func (w *Writer) BeginArray() { w.open('[') }

// EndArray closes the open array.
func (w *Writer) EndArray() { w.close(']') }

// String writes s quoted.
func (w *Writer) String(s string) {
	w.value()
	w.set(AppendString(w.bytes(), s))
}

// Strings writes ss as an array of strings, null when ss is nil (as
// encoding/json writes a nil slice).
func (w *Writer) Strings(ss []string) {
	if ss == nil {
		w.Null()
		return
	}
	w.BeginArray()
	for _, s := range ss {
		w.String(s)
	}
	w.EndArray()
}

// Int writes n.
func (w *Writer) Int(n int) {
	w.value()
	w.set(strconv.AppendInt(w.bytes(), int64(n), 10))
}

// Bool writes v.
func (w *Writer) Bool(v bool) {
	w.value()
	w.set(strconv.AppendBool(w.bytes(), v))
}

// Null writes null.
func (w *Writer) Null() {
	w.value()
	w.set(append(w.bytes(), "null"...))
}

// Float writes f as encoding/json writes a float64: the shortest decimal
// that reads back as f, in exponent form below 1e-6 and from 1e21. NaN and
// the infinities are an error, as in encoding/json.
func (w *Writer) Float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if w.err == nil {
			w.err = &json.UnsupportedValueError{Value: reflect.ValueOf(f), Str: strconv.FormatFloat(f, 'g', -1, 64)}
		}
		f = 0
	}
	w.value()
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(w.bytes(), f, format, -1, 64)
	if format == 'e' { // e-09 → e-9, as encoding/json
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	w.set(b)
}

// Marshal writes v through encoding/json (HTML left unescaped), for the
// rare values not worth writing by hand.
func (w *Writer) Marshal(v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	raw := []byte("null")
	if err := enc.Encode(v); err != nil {
		if w.err == nil {
			w.err = err
		}
	} else {
		raw = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	w.value()
	if w.indent {
		w.set(indent(w.bytes(), raw, w.depth))
	} else {
		w.set(append(w.bytes(), raw...))
	}
}

// StringMap writes m as an object of strings, keys sorted as encoding/json
// sorts them, null when m is nil.
func (w *Writer) StringMap(m map[string]string) {
	writeMap(w, m, (*Writer).String)
}

// StringsMap writes m as an object of string arrays, keys sorted, null when
// m is nil.
func (w *Writer) StringsMap(m map[string][]string) {
	writeMap(w, m, (*Writer).Strings)
}

// FloatMap writes m as an object of numbers, keys sorted, null when m is nil.
func (w *Writer) FloatMap(m map[string]float64) {
	writeMap(w, m, (*Writer).Float)
}

func writeMap[V any](w *Writer, m map[string]V, value func(*Writer, V)) {
	if m == nil {
		w.Null()
		return
	}
	var buf [16]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.BeginObject()
	for _, k := range keys {
		w.Key(k)
		value(w, m[k])
	}
	w.EndObject()
}

func (w *Writer) open(c byte) {
	w.value()
	w.set(append(w.bytes(), c))
	w.depth++
	w.first = true
}

func (w *Writer) close(c byte) {
	w.depth--
	b := w.bytes()
	if !w.first && w.indent {
		b = newline(b, w.depth)
	}
	w.set(append(b, c))
	w.first = false
}

// value places what goes before a value: nothing after a key, else the
// separator of an array element.
func (w *Writer) value() {
	if w.keyed {
		w.keyed = false
		return
	}
	w.element()
}

// element places what goes before an array element or an object key.
func (w *Writer) element() {
	if w.depth == 0 {
		return
	}
	b := w.bytes()
	if !w.first {
		b = append(b, ',')
	}
	w.first = false
	if w.indent {
		b = newline(b, w.depth)
	}
	w.set(b)
}

// AppendString appends s quoted as encoding/json quotes a string without
// HTML escaping: '"', '\\' and control characters escaped, invalid UTF-8
// as \ufffd, U+2028 and U+2029 escaped (JavaScript reads them as line ends).
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
