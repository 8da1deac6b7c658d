package redact

import (
	"reflect"
	"sync"
)

// typeInfo is what Value needs to know of a type, worked out once per
// type and kept for the life of the process.
type typeInfo struct {
	// holds reports whether a value of the type can hold a string Value
	// would mask, so values that cannot (numbers, time.Time) are skipped.
	holds bool
	// elem describes a pointer's, slice's, array's or map's elements, key
	// a map's keys.
	elem, key *typeInfo
	// fields are the struct fields Value walks: exported, not tagged
	// `redact:"-"`, and able to hold a string.
	fields []field
}

type field struct {
	index int
	info  *typeInfo
}

// described holds the *typeInfo of every type described so far.
var described sync.Map

// describe returns t's typeInfo.
func describe(t reflect.Type) *typeInfo {
	if ti, ok := described.Load(t); ok {
		return ti.(*typeInfo)
	}
	local := map[reflect.Type]*typeInfo{}
	ti := describeIn(t, local)
	for t, ti := range local {
		described.LoadOrStore(t, ti)
	}
	return ti
}

// describeIn describes t, recording in local every type it describes. A
// recursive type is assumed to hold strings while it is being described.
func describeIn(t reflect.Type, local map[reflect.Type]*typeInfo) *typeInfo {
	if ti, ok := described.Load(t); ok {
		return ti.(*typeInfo)
	}
	if ti, ok := local[t]; ok {
		return ti
	}
	ti := &typeInfo{holds: true}
	local[t] = ti
	switch t.Kind() {
	case reflect.String, reflect.Interface:
	case reflect.Slice:
		ti.elem = describeIn(t.Elem(), local)
		ti.holds = t.Elem().Kind() == reflect.Uint8 || ti.elem.holds
	case reflect.Pointer, reflect.Array:
		ti.elem = describeIn(t.Elem(), local)
		ti.holds = ti.elem.holds
	case reflect.Map:
		ti.key, ti.elem = describeIn(t.Key(), local), describeIn(t.Elem(), local)
		ti.holds = ti.key.holds || ti.elem.holds
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Tag.Get("redact") == "-" {
				continue
			}
			if fi := describeIn(f.Type, local); fi.holds {
				ti.fields = append(ti.fields, field{i, fi})
			}
		}
		ti.holds = len(ti.fields) > 0
	default:
		ti.holds = false
	}
	return ti
}
