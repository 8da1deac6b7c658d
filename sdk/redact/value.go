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
// unchanged; parts without a secret are shared with the copy (a struct,
// slice, map or pointer is copied only when something beneath it is
// masked), so v without a secret comes back as it is.
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
	in := reflect.ValueOf(&v).Elem()
	w := walker{r: r}
	out, changed := w.walk(in, describe(in.Type()))
	if w.broken {
		w = walker{r: r, cycles: true}
		out, changed = w.walk(in, describe(in.Type()))
	}
	if !changed {
		return v
	}
	masked, _ := out.Interface().(T)
	return masked
}

// visit identifies a pointer already walked, so shared and cyclic
// structures stay shared and cyclic.
type visit struct {
	ptr uintptr
	typ reflect.Type
}

// walked is what became of a pointer: its result once walked, or, while
// it is walked, the copy handed to a cycle leading back to it.
type walked struct {
	out     reflect.Value
	changed bool
	done    bool
	cycled  bool // a cycle led back to the pointer as it was
}

// walker walks a value once. A cycle leads back to a pointer being walked
// as the pointer itself, which is right unless something on the cycle is
// masked: then the walk is broken and done again with cycles set, where a
// cycle leads to the pointer's copy.
type walker struct {
	r      *Redactor
	seen   map[visit]walked
	cycles bool
	broken bool
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// walk returns v unchanged and false, or a masked copy of v of v's type
// and true; ti describes v's type.
func (w *walker) walk(v reflect.Value, ti *typeInfo) (reflect.Value, bool) {
	if !ti.holds {
		return v, false
	}
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		m := w.r.String(s)
		if m == s {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.SetString(m)
		return out, true
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		return w.pointer(v, ti)
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		if v.CanInterface() && w.plainUnchanged(v.Interface()) {
			return v, false
		}
		return w.iface(v)
	case reflect.Struct:
		var out reflect.Value
		for _, f := range ti.fields {
			m, changed := w.walk(v.Field(f.index), f.info)
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(v.Type()).Elem()
				out.Set(v)
			}
			out.Field(f.index).Set(m)
		}
		return out, out.IsValid()
	case reflect.Slice:
		if v.IsNil() {
			return v, false
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return w.bytes(v)
		}
		var out reflect.Value
		for i := range v.Len() {
			m, changed := w.walk(v.Index(i), ti.elem)
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				reflect.Copy(out, v)
			}
			out.Index(i).Set(m)
		}
		return out, out.IsValid()
	case reflect.Array:
		var out reflect.Value
		for i := range v.Len() {
			m, changed := w.walk(v.Index(i), ti.elem)
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(v.Type()).Elem()
				out.Set(v)
			}
			out.Index(i).Set(m)
		}
		return out, out.IsValid()
	case reflect.Map:
		if v.IsNil() {
			return v, false
		}
		return w.mapping(v, ti)
	}
	return v, false
}

// pointer walks what v points to and points to a copy only when that
// changed (or when a cycle leads back to v while it is walked).
func (w *walker) pointer(v reflect.Value, ti *typeInfo) (reflect.Value, bool) {
	key := visit{v.Pointer(), v.Type()}
	if p, ok := w.seen[key]; ok {
		if p.done {
			return p.out, p.changed
		}
		// A cycle: v is being walked.
		if !w.cycles {
			p.cycled = true
			w.seen[key] = p
			return v, false
		}
		// Its copy stands in for it, and everything on the cycle is
		// copied to lead to it.
		if !p.out.IsValid() {
			p.out = reflect.New(v.Type().Elem())
			w.seen[key] = p
		}
		return p.out, true
	}
	if w.seen == nil {
		w.seen = map[visit]walked{}
	}
	w.seen[key] = walked{}
	elem, changed := w.walk(v.Elem(), ti.elem)
	p := w.seen[key]
	p.done = true
	w.broken = w.broken || changed && p.cycled
	switch {
	case p.out.IsValid(): // handed to a cycle
		p.out.Elem().Set(elem)
		p.changed = true
	case changed:
		p.out = reflect.New(v.Type().Elem())
		p.out.Elem().Set(elem)
		p.changed = true
	default:
		p.out = v
	}
	w.seen[key] = p
	return p.out, p.changed
}

// iface masks an error by its message, and anything else by what it holds.
func (w *walker) iface(v reflect.Value) (reflect.Value, bool) {
	e := v.Elem()
	if err, ok := e.Interface().(error); ok {
		msg := err.Error()
		clean := w.r.String(msg)
		if clean == msg {
			return v, false
		}
		if m := reflect.ValueOf(error(&maskedError{msg: clean, err: err, r: w.r})); m.Type().AssignableTo(v.Type()) {
			out := reflect.New(v.Type()).Elem()
			out.Set(m)
			return out, true
		}
	}
	m, changed := w.walk(e, describe(e.Type()))
	if !changed {
		return v, false
	}
	out := reflect.New(v.Type()).Elem()
	out.Set(m)
	return out, true
}

// mapping copies a map when one of its keys or values changed; a masked
// key replaces its original.
func (w *walker) mapping(v reflect.Value, ti *typeInfo) (reflect.Value, bool) {
	if v.CanInterface() && w.mapUnchanged(v.Interface()) {
		return v, false
	}
	type entry struct{ key, newKey, value reflect.Value }
	var changed []entry
	for it := v.MapRange(); it.Next(); {
		k, kc := w.walk(it.Key(), ti.key)
		x, xc := w.walk(it.Value(), ti.elem)
		if kc || xc {
			changed = append(changed, entry{it.Key(), k, x})
		}
	}
	if len(changed) == 0 {
		return v, false
	}
	out := reflect.MakeMapWithSize(v.Type(), v.Len())
	for it := v.MapRange(); it.Next(); {
		out.SetMapIndex(it.Key(), it.Value())
	}
	for _, e := range changed {
		out.SetMapIndex(e.key, reflect.Value{})
	}
	for _, e := range changed {
		out.SetMapIndex(e.newKey, e.value)
	}
	return out, true
}

// bytes masks a byte slice as text, or as JSON when it is a
// json.RawMessage: a secret written with JSON escapes (\u0041) is found
// once decoded.
func (w *walker) bytes(v reflect.Value) (reflect.Value, bool) {
	b := v.Bytes()
	var m []byte
	if v.Type() == rawMessage && json.Valid(b) {
		m = w.json(b)
	} else {
		m = w.r.Bytes(b)
	}
	if bytes.Equal(m, b) {
		return v, false
	}
	return reflect.ValueOf(m).Convert(v.Type()), true
}

// json masks valid JSON b as decoded JSON, re-encoded only when it
// changed.
func (w *walker) json(b []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if dec.Decode(&x) != nil {
		return w.r.Bytes(b)
	}
	xv := reflect.ValueOf(&x).Elem()
	masked, changed := w.walk(xv, describe(xv.Type()))
	if !changed {
		return b
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if enc.Encode(masked.Interface()) != nil {
		return w.r.Bytes(b)
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// plainUnchanged reports whether x is of a type that cannot be an error,
// holding nothing to mask: a string without a secret, a []string of
// such, a number or a bool. It is false for every other x, left to the
// reflective walk (as is any x with something to mask).
func (w *walker) plainUnchanged(x any) bool {
	switch x := x.(type) {
	case string:
		return w.r.String(x) == x
	case []string:
		return w.stringsUnchanged(x)
	case bool, int, int64, float64:
		return true
	}
	return false
}

func (w *walker) stringsUnchanged(ss []string) bool {
	for _, s := range ss {
		if w.r.String(s) != s {
			return false
		}
	}
	return true
}

// mapUnchanged reports whether m is a map of a common type (a record's
// fields, a step's filters) whose keys and values hold nothing to mask,
// found without reflection; false leaves m to the reflective walk.
func (w *walker) mapUnchanged(m any) bool {
	switch m := m.(type) {
	case map[string]any:
		for k, x := range m {
			if w.r.String(k) != k || x != nil && !w.plainUnchanged(x) {
				return false
			}
		}
		return true
	case map[string]string:
		for k, x := range m {
			if w.r.String(k) != k || w.r.String(x) != x {
				return false
			}
		}
		return true
	case map[string][]string:
		for k, x := range m {
			if w.r.String(k) != k || !w.stringsUnchanged(x) {
				return false
			}
		}
		return true
	}
	return false
}
