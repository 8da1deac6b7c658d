package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// InputError is a problem in a request's JSON, with the position (1-based
// line and column) where it was found and the field it concerns.
type InputError struct {
	Line, Column int
	Field        string // e.g. "intents[1].confidence"; empty for syntax errors
	Msg          string
}

// Error formats the problem as "line:col: field: message".
func (e *InputError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%d:%d: %s: %s", e.Line, e.Column, e.Field, e.Msg)
}

// Validate checks what JSON decoding cannot: intent types are set and
// confidences lie in [0, 1].
func (r Request) Validate() error {
	for i, in := range r.Intents {
		if err := in.validate(); err != nil {
			return fmt.Errorf("intents[%d]: %w", i, err)
		}
	}
	return nil
}

func (in Intent) validate() error {
	if in.Type == "" {
		return errors.New("type: must not be empty")
	}
	if math.IsNaN(in.Confidence) || in.Confidence < 0 || in.Confidence > 1 {
		return fmt.Errorf("confidence: %v is outside [0, 1]", in.Confidence)
	}
	return nil
}

// MaxRequestSize is the largest request read: requests are small, and the
// cap keeps a mistaken input (/dev/zero, a log file) from exhausting memory.
const MaxRequestSize = 16 << 20

// DecodeRequest reads a request's JSON: an object with the optional fields
// query, intents, entities and mode. Unknown fields, wrong types, trailing
// data and invalid intents are *InputError values naming the position and
// the field.
func DecodeRequest(r io.Reader) (Request, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxRequestSize+1))
	if err != nil {
		return Request{}, err
	}
	if len(data) > MaxRequestSize {
		line, col := position(data, MaxRequestSize)
		return Request{}, &InputError{Line: line, Column: col,
			Msg: fmt.Sprintf("the request is larger than %d MiB; is this the right file?", MaxRequestSize>>20)}
	}
	// A byte order mark is how some editors start UTF-8 files; it is not
	// JSON, and positions count from after it as those editors show them.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	d := &requestDecoder{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	req, err := d.request()
	if err != nil {
		return Request{}, err
	}
	return req, nil
}

// requestDecoder walks the top-level object token by token, so every error
// knows where it is.
type requestDecoder struct {
	data []byte
	dec  *json.Decoder
}

func (d *requestDecoder) failAt(offset int64, field, format string, args ...any) error {
	line, col := position(d.data, offset)
	return &InputError{Line: line, Column: col, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// next is the offset of the next token: the decoder's offset past any
// whitespace and separators.
func (d *requestDecoder) next() int64 {
	off := d.dec.InputOffset()
	for off < int64(len(d.data)) {
		switch d.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// wrap turns a decoding error into an InputError at its position.
func (d *requestDecoder) wrap(field string, at int64, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return d.failAt(d.offending(syn), "", "%s", syn.Error())
	case errors.As(err, &typ):
		name := field
		if typ.Field != "" && field != "" {
			name = field + "." + typ.Field
		}
		return d.failAt(at, name, "%s", mismatch(typ.Type.String(), typ.Value))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return d.failAt(int64(len(d.data)), "", "unexpected end of input")
	}
	return d.failAt(at, field, "%v", err)
}

// mismatch describes a JSON value that does not fit the Go type t;
// encoding/json reports a number too large for a float64 as a mismatch.
func mismatch(t, value string) string {
	if n, ok := strings.CutPrefix(value, "number "); ok && t == "float64" {
		return n + " is too large for a number"
	}
	return fmt.Sprintf("expected %s, got JSON %s", goTypeName(t), value)
}

// valueStart is the offset of field's value in the object raw.
func valueStart(raw []byte, field string) int64 {
	i := bytes.Index(raw, []byte(`"`+field+`"`))
	if i < 0 {
		return 0
	}
	i += len(field) + 2
	for i < len(raw) && (raw[i] == ':' || raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r' || raw[i] == '\n') {
		i++
	}
	return int64(i)
}

func goTypeName(t string) string {
	switch t {
	case "string":
		return "a string"
	case "float64":
		return "a number"
	case "[]string":
		return "an array of strings"
	case "map[string][]string":
		return "an object of string arrays"
	}
	return t
}

func (d *requestDecoder) request() (Request, error) {
	var req Request
	at := d.next()
	tok, err := d.dec.Token()
	if err != nil {
		return req, d.wrap("", at, err)
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return req, d.failAt(at, "", "expected a JSON object like {\"query\": \"…\"}")
	}
	seen := map[string]bool{}
	for d.dec.More() {
		at := d.next()
		tok, err := d.dec.Token()
		if err != nil {
			return req, d.wrap("", at, err)
		}
		key := tok.(string)
		if seen[key] {
			return req, d.failAt(at, key, "field appears twice")
		}
		seen[key] = true
		switch key {
		case "query":
			err = d.value(key, &req.Query)
		case "mode":
			err = d.value(key, &req.Mode)
		case "entities":
			err = d.entities(&req)
		case "intents":
			err = d.intents(&req)
		default:
			return req, d.failAt(at, key, "unknown field (expected query, intents, entities or mode)")
		}
		if err != nil {
			return req, err
		}
	}
	if err := d.close(""); err != nil {
		return req, err
	}
	if at := d.next(); at < int64(len(d.data)) {
		return req, d.failAt(at, "", "unexpected data after the request object")
	}
	return req, nil
}

func (d *requestDecoder) value(field string, dst any) error {
	at := d.next()
	if err := d.dec.Decode(dst); err != nil {
		return d.wrap(field, at, err)
	}
	return nil
}

// open reads the token that opens field's value: delim, or null (present
// is false). Anything else is the error expected, at the token.
func (d *requestDecoder) open(field string, delim json.Delim, expected string) (present bool, err error) {
	at := d.next()
	tok, err := d.dec.Token()
	if err != nil {
		return false, d.wrap(field, at, err)
	}
	if tok == nil {
		return false, nil
	}
	if got, ok := tok.(json.Delim); !ok || got != delim {
		return false, d.failAt(at, field, "%s", expected)
	}
	return true, nil
}

// close reads the token that closes field's object or array.
func (d *requestDecoder) close(field string) error {
	if _, err := d.dec.Token(); err != nil {
		return d.wrap(field, d.next(), err)
	}
	return nil
}

func (d *requestDecoder) entities(req *Request) error {
	present, err := d.open("entities", '{', "expected an object of string arrays like {\"projects\": [\"my-repo\"]}")
	if !present {
		return err
	}
	req.Entities = map[string][]string{}
	for d.dec.More() {
		at := d.next()
		tok, err := d.dec.Token()
		if err != nil {
			return d.wrap("entities", at, err)
		}
		key := tok.(string)
		field := "entities." + key
		if key == "" {
			return d.failAt(at, "entities", "entity names must not be empty")
		}
		if _, dup := req.Entities[key]; dup {
			return d.failAt(at, field, "entity appears twice")
		}
		at = d.next()
		var values []string
		if err := d.dec.Decode(&values); err != nil {
			return d.wrap(field, at, err)
		}
		for _, v := range values {
			if v == "" {
				return d.failAt(at, field, "values must not be empty strings")
			}
		}
		req.Entities[key] = values
	}
	return d.close("entities")
}

func (d *requestDecoder) intents(req *Request) error {
	present, err := d.open("intents", '[', "expected an array of {\"type\": …, \"confidence\": …}")
	if !present {
		return err
	}
	for i := 0; d.dec.More(); i++ {
		field := fmt.Sprintf("intents[%d]", i)
		at := d.next()
		var in struct {
			Type       *string  `json:"type"`
			Confidence *float64 `json:"confidence"`
		}
		var raw json.RawMessage
		if err := d.dec.Decode(&raw); err != nil {
			return d.wrap(field, at, err)
		}
		if key, off, ok := duplicateKey(raw); ok {
			return d.failAt(at+off, field+"."+key, "field appears twice")
		}
		strict := json.NewDecoder(bytes.NewReader(raw))
		strict.DisallowUnknownFields()
		if err := strict.Decode(&in); err != nil {
			return d.intentError(field, at, raw, err)
		}
		switch {
		case in.Type == nil || *in.Type == "":
			return d.failAt(at, field+".type", "missing intent type")
		case in.Confidence == nil:
			return d.failAt(at, field+".confidence", "missing confidence (a number in [0, 1])")
		}
		intent := Intent{Type: *in.Type, Confidence: *in.Confidence}
		if c := intent.Confidence; c < 0 || c > 1 {
			return d.failAt(at+valueStart(raw, "confidence"), field+".confidence", "%v is outside [0, 1]", c)
		}
		req.Intents = append(req.Intents, intent)
	}
	return d.close("intents")
}

// duplicateKey finds the first key that repeats in the JSON object raw
// and its offset; encoding/json would silently keep the last value.
func duplicateKey(raw []byte) (key string, offset int64, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", 0, false
	}
	seen := map[string]bool{}
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return "", 0, false
		}
		k, _ := tok.(string)
		if seen[k] {
			return k, start + int64(bytes.IndexByte(raw[start:], '"')), true
		}
		seen[k] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", 0, false
		}
	}
	return "", 0, false
}

// intentError positions an error inside one intent object.
func (d *requestDecoder) intentError(field string, at int64, raw []byte, err error) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" {
		return d.failAt(at+valueStart(raw, typ.Field), field+"."+typ.Field, "%s", mismatch(typeOf(typ.Type.String()), typ.Value))
	}
	if name, ok := unknownField(err); ok {
		return d.failAt(at+int64(bytes.Index(raw, []byte(`"`+name+`"`))), field+"."+name,
			"unknown field (expected type and confidence)")
	}
	if errors.As(err, new(*json.SyntaxError)) {
		return d.failAt(at, field, "%v", err)
	}
	return d.failAt(at, field, "expected an object like {\"type\": \"query_commits\", \"confidence\": 0.9}")
}

// typeOf strips the pointer of optional fields.
func typeOf(t string) string {
	if len(t) > 0 && t[0] == '*' {
		return t[1:]
	}
	return t
}

// unknownField extracts the name from encoding/json's unknown-field error.
func unknownField(err error) (string, bool) {
	var name string
	if _, scanErr := fmt.Sscanf(err.Error(), "json: unknown field %q", &name); scanErr != nil {
		return "", false
	}
	return name, true
}

// offending returns the offset of the character a syntax error is about.
// encoding/json reports either that offset or one before it followed by
// whitespace, depending on which of its entry points found the error.
func (d *requestDecoder) offending(syn *json.SyntaxError) int64 {
	rest, ok := strings.CutPrefix(syn.Error(), "invalid character '")
	if !ok || len(rest) < 2 || rest[1] != '\'' {
		return syn.Offset
	}
	c, n := rest[0], int64(len(d.data))
	if i := syn.Offset - 1; i >= 0 && i < n && d.data[i] == c {
		return i
	}
	i := syn.Offset
	for i < n && d.data[i] != c && strings.IndexByte(" \t\r\n", d.data[i]) >= 0 {
		i++
	}
	if i < n && d.data[i] == c {
		return i
	}
	return syn.Offset
}

// position turns a byte offset into a 1-based line and column (in runes).
func position(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	line, col = 1, 1
	for _, r := range string(data[:offset]) {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
