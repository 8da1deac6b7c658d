package config

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// field is one config key of a struct: what its tags declare about it.
type field struct {
	key      string // the JSON key, from the json tag
	index    int    // the struct field's index
	typ      reflect.Type
	doc      string   // doc tag: the schema's description
	def      string   // default tag: applied when the key is unset
	enum     []string // enum tag, comma-separated: the values the schema offers
	min, max string   // min and max tags: the schema's bounds for a number
	want     string   // want tag: what a valid value is, for a value that does not decode
	required bool     // config:"required"
	secret   bool     // config:"secret": the value is never repeated
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// fieldCache holds each struct type's fields, read once as encoding/json
// reads its types once: tags do not change while a program runs.
var fieldCache sync.Map // reflect.Type → []field

// fields lists the config keys of struct type t in declaration order: its
// exported fields with a json tag other than "-".
func fields(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	fs, _ := fieldCache.LoadOrStore(t, readFields(t))
	return fs.([]field)
}

// readFields reads the fields of struct type t from its tags.
func readFields(t reflect.Type) []field {
	fs := make([]field, 0, t.NumField())
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "" || name == "-" {
			continue
		}
		f := field{key: name, index: i, typ: sf.Type, doc: sf.Tag.Get("doc"), def: sf.Tag.Get("default"),
			min: sf.Tag.Get("min"), max: sf.Tag.Get("max"), want: sf.Tag.Get("want")}
		if e := sf.Tag.Get("enum"); e != "" {
			f.enum = strings.Split(e, ",")
		}
		for flag := range strings.SplitSeq(sf.Tag.Get("config"), ",") {
			f.required = f.required || flag == "required"
			f.secret = f.secret || flag == "secret"
		}
		fs = append(fs, f)
	}
	return fs
}

// decodesItself reports whether values of t are decoded by t's own
// UnmarshalJSON or UnmarshalText, whose error says best what is wrong.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(unmarshalerType) || p.Implements(textUnmarshalerType)
}

// nested reports whether t is a struct whose keys are decoded one by one.
func nested(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && !decodesItself(t)
}

// expected says what a valid value of f is, for a value that does not
// decode; "" leaves the word to the type's own decoder.
func (f field) expected() string {
	switch {
	case f.want != "":
		return f.want
	case decodesItself(f.typ):
		return ""
	case len(f.enum) > 0:
		return quotedList(f.enum)
	}
	return kindWord(f.typ)
}

// kindWord names what a JSON value of Go type t is.
func kindWord(t reflect.Type) string {
	switch t = base(t); t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list" + ofWord(t.Elem())
	case reflect.Map:
		return "an object" + ofWord(t.Elem())
	case reflect.Struct:
		return "an object"
	}
	return "a value"
}

// ofWord is " of strings" for a list or object of strings, and the like.
func ofWord(t reflect.Type) string {
	switch w := kindWord(t); w {
	case "a string", "an integer", "a number":
		return " of " + strings.TrimPrefix(strings.TrimPrefix(w, "a "), "an ") + "s"
	}
	return ""
}

// quotedList is `"a", "b" or "c"`.
func quotedList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
