package redact

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Value returns a copy of v with every secret masked in every string it
// holds: strings and named string types, []byte (json.RawMessage as
// decoded JSON), errors, and whatever exported struct fields, pointers,
// slices, arrays, maps (keys too) and interfaces lead to. v is left
// unchanged; parts without a secret may be shared with the copy.
//
// Output code masks what it renders with Value before encoding it, so no
// encoding (JSON, XML, %q, a diagram label) can spell a secret in a way a
// byte-level Redactor does not know. A struct field tagged `redact:"-"` is
// copied as it is (data no output renders, such as compiled rules);
// unexported fields are copied as they are.
func Value[T any](r *Redactor, v T) T {
	if !r.active() {
		return v
	}
	w := walker{r: r, seen: map[visit]reflect.Value{}, holds: map[reflect.Type]bool{}}
	out, _ := w.walk(reflect.ValueOf(&v).Elem()).Interface().(T)
	return out
}

// visit identifies a pointer already copied, so shared and cyclic
// structures stay shared and cyclic.
type visit struct {
	ptr uintptr
	typ reflect.Type
}

type walker struct {
	r     *Redactor
	seen  map[visit]reflect.Value
	holds map[reflect.Type]bool
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// walk returns v, or a masked copy of it, of v's type.
func (w *walker) walk(v reflect.Value) reflect.Value {
	t := v.Type()
	if !w.mayHold(t) {
		return v
	}
	switch t.Kind() {
	case reflect.String:
		s := v.String()
		if m := w.r.String(s); m != s {
			return reflect.ValueOf(m).Convert(t)
		}
		return v
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		key := visit{v.Pointer(), t}
		if p, ok := w.seen[key]; ok {
			return p
		}
		p := reflect.New(t.Elem())
		w.seen[key] = p
		p.Elem().Set(w.walk(v.Elem()))
		return p
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(t).Elem()
		e := v.Elem()
		if err, ok := e.Interface().(error); ok {
			if m := reflect.ValueOf(w.r.Error(err)); m.Type().AssignableTo(t) {
				out.Set(m)
				return out
			}
		}
		out.Set(w.walk(e))
		return out
	case reflect.Struct:
		out := reflect.New(t).Elem()
		out.Set(v)
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && f.Tag.Get("redact") != "-" {
				out.Field(i).Set(w.walk(v.Field(i)))
			}
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return reflect.ValueOf(w.bytes(v.Bytes(), t == rawMessage)).Convert(t)
		}
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(w.walk(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(t).Elem()
		for i := range v.Len() {
			out.Index(i).Set(w.walk(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(w.walk(it.Key()), w.walk(it.Value()))
		}
		return out
	}
	return v
}

// bytes masks b as text, or as JSON when it is a json.RawMessage: a secret
// written with JSON escapes (\u0041) is found once decoded.
func (w *walker) bytes(b []byte, isJSON bool) []byte {
	if !isJSON || !json.Valid(b) {
		return w.r.Bytes(b)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if dec.Decode(&x) != nil {
		return w.r.Bytes(b)
	}
	masked := w.walk(reflect.ValueOf(&x).Elem()).Interface()
	if reflect.DeepEqual(masked, x) {
		return b
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if enc.Encode(masked) != nil {
		return w.r.Bytes(b)
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// mayHold reports whether a value of type t can hold a string that Value
// would mask, so values that cannot (numbers, time.Time) are not copied.
func (w *walker) mayHold(t reflect.Type) bool {
	if h, ok := w.holds[t]; ok {
		return h
	}
	w.holds[t] = true // a recursive type is assumed to hold strings while it is looked at
	h := false
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		h = true
	case reflect.Slice:
		h = t.Elem().Kind() == reflect.Uint8 || w.mayHold(t.Elem())
	case reflect.Pointer, reflect.Array:
		h = w.mayHold(t.Elem())
	case reflect.Map:
		h = w.mayHold(t.Key()) || w.mayHold(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && f.Tag.Get("redact") != "-" && w.mayHold(f.Type) {
				h = true
				break
			}
		}
	}
	w.holds[t] = h
	return h
}
