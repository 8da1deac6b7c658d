// Package jsonrepair is the one routine nous uses to turn almost-JSON from
// an LLM into JSON: code fences and surrounding prose are stripped, single
// quotes, unquoted keys, comments, Python literals, trailing or missing
// commas are fixed, and a truncated document is closed.
package jsonrepair

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNoJSON is returned when the input holds no object or array at all.
var ErrNoJSON = errors.New("jsonrepair: no JSON object or array found")

// Repair returns in as valid JSON. Valid JSON is returned unchanged (minus
// surrounding whitespace); anything else is repaired or rejected with an
// error saying why.
func Repair(in []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(in)
	if json.Valid(trimmed) {
		return trimmed, nil
	}
	body := stripFences(trimmed)
	start := bytes.IndexAny(body, "{[")
	if start < 0 {
		return nil, ErrNoJSON
	}
	r := repairer{in: body[start:], out: make([]byte, 0, len(body)+16)}
	r.run()
	if !json.Valid(r.out) {
		return nil, fmt.Errorf("jsonrepair: could not repair the document (best effort %.80q)", r.out)
	}
	return r.out, nil
}

// stripFences returns the content of the first Markdown code fence, or in
// itself when there is none.
func stripFences(in []byte) []byte {
	open := bytes.Index(in, []byte("```"))
	if open < 0 {
		return in
	}
	rest := in[open+3:]
	if nl := bytes.IndexByte(rest, '\n'); nl >= 0 && !bytes.ContainsAny(rest[:nl], "{[") {
		rest = rest[nl+1:] // drop the info string ("json")
	}
	if end := bytes.Index(rest, []byte("```")); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// frame is one open object or array.
type frame struct {
	object    bool
	expectKey bool // object: the next string is a key
	afterKey  bool // object: a key was written, its colon not yet
}

type repairer struct {
	in    []byte
	pos   int
	out   []byte
	stack []frame
	done  bool // the root value closed
}

func (r *repairer) run() {
	for r.pos < len(r.in) && !r.done {
		c := r.in[r.pos]
		switch {
		case c == '{' || c == '[':
			r.beforeValue()
			r.stack = append(r.stack, frame{object: c == '{', expectKey: c == '{'})
			r.out = append(r.out, c)
			r.pos++
		case c == '}' || c == ']':
			r.close(c)
			r.pos++
		case c == ',':
			r.comma()
			r.pos++
		case c == ':':
			r.colon()
			r.pos++
		case c == '"' || c == '\'':
			r.str(c)
		case c == '/' && r.pos+1 < len(r.in) && (r.in[r.pos+1] == '/' || r.in[r.pos+1] == '*'):
			r.comment()
		case c == '-' || c == '+' || c == '.' || isDigit(c):
			r.number()
		case isWordStart(c):
			r.word()
		default: // whitespace and stray characters
			r.pos++
		}
	}
	r.finish()
}

// top returns the innermost open frame, or nil.
func (r *repairer) top() *frame {
	if len(r.stack) == 0 {
		return nil
	}
	return &r.stack[len(r.stack)-1]
}

// last returns the last byte written, or 0.
func (r *repairer) last() byte {
	if len(r.out) == 0 {
		return 0
	}
	return r.out[len(r.out)-1]
}

// beforeValue inserts a missing comma or colon before a value or key.
func (r *repairer) beforeValue() {
	f := r.top()
	if f == nil {
		return
	}
	switch r.last() {
	case '{', '[', ',', ':':
	default:
		if f.object && f.afterKey {
			r.out = append(r.out, ':')
			f.afterKey = false
			return
		}
		r.out = append(r.out, ',')
		if f.object {
			f.expectKey = true
		}
	}
}

// closer is the bracket that closes f.
func (f *frame) closer() byte {
	if f.object {
		return '}'
	}
	return ']'
}

// close closes open frames up to and including the innermost one that c
// closes; frames left open inside it (a missing bracket) close with it.
func (r *repairer) close(c byte) {
	for len(r.stack) > 0 {
		f := r.top()
		want := f.closer()
		r.trimDangling(f)
		r.out = append(r.out, want)
		r.stack = r.stack[:len(r.stack)-1]
		if want == c {
			break
		}
	}
	if len(r.stack) == 0 {
		r.done = len(r.out) > 0
	}
}

// trimDangling removes a trailing comma and completes a key without value.
func (r *repairer) trimDangling(f *frame) {
	if r.last() == ',' {
		r.out = r.out[:len(r.out)-1]
	}
	if f.object && f.afterKey {
		r.out = append(r.out, ':')
		f.afterKey = false
	}
	if r.last() == ':' {
		r.out = append(r.out, "null"...)
	}
}

func (r *repairer) comma() {
	f := r.top()
	if f == nil {
		return
	}
	switch r.last() {
	case ',', '{', '[':
		return // a doubled or leading comma
	case ':':
		r.out = append(r.out, "null"...)
	}
	if f.object && f.afterKey {
		r.out = append(r.out, ":null"...)
		f.afterKey = false
	}
	r.out = append(r.out, ',')
	f.expectKey = f.object
}

func (r *repairer) colon() {
	f := r.top()
	if f == nil || !f.object || !f.afterKey {
		return // a stray colon
	}
	r.out = append(r.out, ':')
	f.afterKey = false
}

// emitString writes s as a JSON string, as a key when the frame expects one.
func (r *repairer) emitString(s string) {
	r.beforeValue()
	b, _ := json.Marshal(s) // a Go string always marshals
	r.out = append(r.out, b...)
	if f := r.top(); f != nil && f.object && f.expectKey {
		f.expectKey = false
		f.afterKey = true
	}
}

func (r *repairer) str(quote byte) {
	r.pos++ // opening quote
	var sb strings.Builder
	for r.pos < len(r.in) {
		c := r.in[r.pos]
		if c == quote {
			r.pos++
			r.emitString(sb.String())
			return
		}
		if c == '\\' && r.pos+1 < len(r.in) {
			r.escape(&sb)
			continue
		}
		sb.WriteByte(c)
		r.pos++
	}
	r.emitString(sb.String()) // truncated inside a string
}

// escape decodes one backslash escape into sb.
func (r *repairer) escape(sb *strings.Builder) {
	e := r.in[r.pos+1]
	r.pos += 2
	switch e {
	case 'n':
		sb.WriteByte('\n')
	case 't':
		sb.WriteByte('\t')
	case 'r':
		sb.WriteByte('\r')
	case 'b':
		sb.WriteByte('\b')
	case 'f':
		sb.WriteByte('\f')
	case 'u':
		if r.pos+4 <= len(r.in) {
			var s string
			if json.Unmarshal([]byte(`"\u`+string(r.in[r.pos:r.pos+4])+`"`), &s) == nil {
				sb.WriteString(s)
				r.pos += 4
				return
			}
		}
		sb.WriteString(`\u`)
	default: // \" \' \\ \/ and unknown escapes keep the character
		sb.WriteByte(e)
	}
}

func (r *repairer) comment() {
	if r.in[r.pos+1] == '/' {
		end := bytes.IndexByte(r.in[r.pos:], '\n')
		if end < 0 {
			r.pos = len(r.in)
			return
		}
		r.pos += end + 1
		return
	}
	end := bytes.Index(r.in[r.pos+2:], []byte("*/"))
	if end < 0 {
		r.pos = len(r.in)
		return
	}
	r.pos += 2 + end + 2
}

func (r *repairer) number() {
	start := r.pos
	for r.pos < len(r.in) && strings.IndexByte("+-.eE0123456789", r.in[r.pos]) >= 0 {
		r.pos++
	}
	tok := strings.TrimPrefix(string(r.in[start:r.pos]), "+")
	if strings.HasPrefix(tok, ".") {
		tok = "0" + tok
	} else if strings.HasPrefix(tok, "-.") {
		tok = "-0" + tok[1:]
	}
	tok = strings.TrimSuffix(tok, ".")
	var n json.Number
	if f := r.top(); (f == nil || !f.object || !f.expectKey) && json.Unmarshal([]byte(tok), &n) == nil {
		r.beforeValue()
		r.out = append(r.out, tok...)
		return
	}
	r.emitString(string(r.in[start:r.pos]))
}

func (r *repairer) word() {
	start := r.pos
	for r.pos < len(r.in) && isWordPart(r.in[r.pos]) {
		r.pos++
	}
	w := string(r.in[start:r.pos])
	if f := r.top(); f != nil && f.object && f.expectKey {
		r.emitString(w)
		return
	}
	lit, ok := literals[w]
	if !ok {
		r.emitString(w)
		return
	}
	r.beforeValue()
	r.out = append(r.out, lit...)
}

// literals maps bare words to JSON literals (JSON, Python and JavaScript spellings).
var literals = map[string]string{
	"true": "true", "false": "false", "null": "null",
	"True": "true", "False": "false", "None": "null",
	"undefined": "null", "NaN": "null",
}

func (r *repairer) finish() {
	for len(r.stack) > 0 {
		f := r.top()
		r.trimDangling(f)
		r.out = append(r.out, f.closer())
		r.stack = r.stack[:len(r.stack)-1]
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordStart(c byte) bool {
	return c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z') || c >= 0x80
}

func isWordPart(c byte) bool { return isWordStart(c) || isDigit(c) || c == '-' }
