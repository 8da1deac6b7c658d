package runner

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// fill decodes the members of obj, an answer that passed its schema's
// check, into out as json.Unmarshal of the whole answer would, without
// scanning the answer twice more: each member is decoded into the field
// its json tag names, a string member that needs no \u escape is
// unquoted here, and a list of strings the check decoded (lists) is
// taken as it is. out must be a pointer to a struct whose exported fields
// all have plain json tags; anything else, or a member that fails, is
// left to json.Unmarshal of raw.
func fill(raw []byte, obj map[string]json.RawMessage, out any, lists []namedList) error {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return json.Unmarshal(raw, out)
	}
	st := rv.Elem()
	if !plainTags(st.Type()) {
		return json.Unmarshal(raw, out)
	}
	for i := range st.NumField() {
		sf := st.Type().Field(i)
		if !sf.IsExported() {
			continue
		}
		name := sf.Tag.Get("json")
		v, ok := obj[name]
		if !ok {
			continue
		}
		f := st.Field(i)
		if f.Kind() == reflect.String {
			if s, ok := unquote(v); ok {
				f.SetString(s)
				continue
			}
		}
		if f.Type() == stringsType {
			if j := slices.IndexFunc(lists, func(l namedList) bool { return l.name == name }); j >= 0 {
				f.Set(reflect.ValueOf(lists[j].list))
				continue
			}
		}
		if json.Unmarshal(v, f.Addr().Interface()) != nil {
			// Its error names the member as decoding the whole answer does.
			return json.Unmarshal(raw, out)
		}
	}
	return nil
}

var stringsType = reflect.TypeFor[[]string]()

// plainTagged holds plainTags' answer for each type asked about (a role's
// output type), as encoding/json keeps its own per type.
var plainTagged sync.Map

// plainTags reports whether every exported field of t is named by a json
// tag without options, and none is embedded: then encoding/json matches
// an answer's members, spelled as the schema spells them, to the fields
// by their tags alone.
func plainTags(t reflect.Type) bool {
	if ok, known := plainTagged.Load(t); known {
		return ok.(bool)
	}
	ok := tagsPlain(t)
	plainTagged.Store(t, ok)
	return ok
}

func tagsPlain(t reflect.Type) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return false
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "" || tag == "-" || strings.Contains(tag, ",") {
			return false
		}
	}
	return true
}

// unquote is the string the JSON string literal v (valid JSON, as
// json.Unmarshal has checked) decodes to, when it holds valid UTF-8 and
// no \u escape; ok is false otherwise, for json.Unmarshal to decode it
// (which replaces invalid UTF-8 and lone surrogates). Being valid JSON,
// v holds no control character and no quote but escaped ones.
func unquote(v []byte) (s string, ok bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	in := v[1 : len(v)-1]
	if !utf8.Valid(in) { // escapes are ASCII: the raw bytes decide
		return "", false
	}
	i := bytes.IndexByte(in, '\\')
	if i < 0 {
		return string(in), true
	}
	out := make([]byte, 0, len(in))
	for i >= 0 {
		if i+1 >= len(in) {
			return "", false
		}
		var r byte
		switch in[i+1] {
		case '"', '\\', '/':
			r = in[i+1]
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		default: // \u, or not JSON
			return "", false
		}
		out = append(append(out, in[:i]...), r)
		in = in[i+2:]
		i = bytes.IndexByte(in, '\\')
	}
	return string(append(out, in...)), true
}
