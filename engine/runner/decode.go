package runner

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// decodeOnce parses raw a single time into a generic tree, checks the tree
// against the schema and fills out from it: the common path of an agent
// answer. It reports false when raw does not fit the schema or out is not
// a plain struct of the shapes role outputs use; the caller then falls back
// to the strict decoding, which yields the exact error (or result).
func (s roleSchema) decodeOnce(raw []byte, out any) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // an integer field must be an integer literal, as json.Unmarshal into int demands
	var tree any
	if dec.Decode(&tree) != nil || len(bytes.TrimLeft(raw[dec.InputOffset():], " \t\r\n")) > 0 {
		return false
	}
	obj, ok := tree.(map[string]any)
	if !ok || !treeFits(obj, s.fields) {
		return false
	}
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() || !fillable(v.Elem().Type(), s.fields) {
		return false
	}
	fillStruct(v.Elem(), obj, s.fields)
	return true
}

// treeFits is checkObject on a parsed tree: true when it finds no problem.
func treeFits(obj map[string]any, fields []schemaField) bool {
	for _, f := range fields {
		v, ok := obj[f.name]
		if !ok || v == nil {
			if f.required {
				return false
			}
			continue
		}
		switch {
		case f.items != nil:
			l, ok := v.([]any)
			if !ok {
				return false
			}
			for _, e := range l {
				o, ok := e.(map[string]any)
				if !ok || !treeFits(o, f.items) {
					return false
				}
			}
		case f.list:
			l, ok := v.([]any)
			if !ok {
				return false
			}
			for _, e := range l {
				if _, ok := e.(string); !ok {
					return false
				}
			}
		case f.integer:
			n, ok := v.(json.Number)
			if !ok {
				return false
			}
			if i, err := strconv.ParseInt(string(n), 10, strconv.IntSize); err != nil || i < 0 {
				return false
			}
		default:
			str, ok := v.(string)
			if !ok || len(f.enum) > 0 && !slices.Contains(f.enum, str) {
				return false
			}
		}
	}
	for k := range obj {
		if !slices.ContainsFunc(fields, func(f schemaField) bool { return f.name == k }) {
			return false
		}
	}
	return true
}

// fieldIndex is the index of t's field whose JSON name is exactly name, or
// -1 when there is none or its tag has options json.Unmarshal treats
// specially.
func fieldIndex(t reflect.Type, name string) int {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if tag == name && sf.IsExported() && !sf.Anonymous && (opts == "" || opts == "omitempty") {
			return i
		}
	}
	return -1
}

// fillable reports whether every schema field has a struct field of the
// matching Go shape, so fillStruct decodes exactly what json.Unmarshal would.
func fillable(t reflect.Type, fields []schemaField) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for _, f := range fields {
		i := fieldIndex(t, f.name)
		if i < 0 {
			return false
		}
		ft := t.Field(i).Type
		switch {
		case f.items != nil:
			if ft.Kind() != reflect.Slice || !fillable(ft.Elem(), f.items) {
				return false
			}
		case f.list:
			if ft.Kind() != reflect.Slice || ft.Elem().Kind() != reflect.String {
				return false
			}
		case f.integer:
			if ft.Kind() != reflect.Int {
				return false
			}
		default:
			if ft.Kind() != reflect.String {
				return false
			}
		}
	}
	return true
}

// fillStruct sets v's fields from a tree treeFits accepted, as json.Unmarshal
// does: absent and null fields keep their value, an empty array is an empty
// (not nil) slice.
func fillStruct(v reflect.Value, obj map[string]any, fields []schemaField) {
	t := v.Type()
	for _, f := range fields {
		val, ok := obj[f.name]
		if !ok {
			continue
		}
		fv := v.Field(fieldIndex(t, f.name))
		if val == nil {
			if fv.Kind() == reflect.Slice {
				fv.SetZero() // null sets a slice to nil, leaves a string or int be
			}
			continue
		}
		switch {
		case f.items != nil:
			l := val.([]any)
			s := reflect.MakeSlice(fv.Type(), len(l), len(l))
			for i, e := range l {
				fillStruct(s.Index(i), e.(map[string]any), f.items)
			}
			fv.Set(s)
		case f.list:
			l := val.([]any)
			s := reflect.MakeSlice(fv.Type(), len(l), len(l))
			for i, e := range l {
				s.Index(i).SetString(e.(string))
			}
			fv.Set(s)
		case f.integer:
			n, _ := strconv.ParseInt(string(val.(json.Number)), 10, strconv.IntSize)
			fv.SetInt(n)
		default:
			fv.SetString(val.(string))
		}
	}
}
