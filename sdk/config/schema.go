package config

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
)

// Schemer is a config value type that gives its own JSON Schema, for a
// type whose JSON differs from its Go kind (a duration read as "30s" or
// as seconds). The tags of a field of that type still add to it.
type Schemer interface {
	ConfigSchema() json.RawMessage
}

// Schema is the JSON Schema of the config struct T: its keys in
// declaration order with their types and tags, the required ones, and no
// other keys. It is what SourceInfo and AgentInfo carry as ConfigSchema.
func Schema[T any]() json.RawMessage {
	b, _ := json.Marshal(typeSchema(reflect.TypeFor[T]())) // cannot fail: every value is valid JSON
	return b
}

var schemerType = reflect.TypeFor[Schemer]()

// typeSchema is the schema of a value of type t.
func typeSchema(t reflect.Type) object {
	t = base(t)
	if reflect.PointerTo(t).Implements(schemerType) {
		return schemerSchema(reflect.New(t).Interface().(Schemer))
	}
	switch t.Kind() {
	case reflect.String:
		return object{{"type", "string"}}
	case reflect.Bool:
		return object{{"type", "boolean"}}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return object{{"type", "integer"}}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return object{{"type", "integer"}, {"minimum", 0}}
	case reflect.Float32, reflect.Float64:
		return object{{"type", "number"}}
	case reflect.Slice, reflect.Array:
		return object{{"type", "array"}, {"items", typeSchema(t.Elem())}}
	case reflect.Map:
		return object{{"type", "object"}, {"additionalProperties", typeSchema(t.Elem())}}
	case reflect.Struct:
		return structSchema(t)
	}
	return object{}
}

// structSchema is the schema of a config struct: an object of its keys.
func structSchema(t reflect.Type) object {
	var required []string
	var props object
	for _, f := range fields(t) {
		props = append(props, member{f.key, f.schema()})
		if f.required {
			required = append(required, f.key)
		}
	}
	s := object{{"type", "object"}}
	if len(required) > 0 {
		s = append(s, member{"required", required})
	}
	return append(s, member{"properties", props}, member{"additionalProperties", false})
}

// schema is the schema of f's type with what f's tags add.
func (f field) schema() object {
	s := typeSchema(f.typ)
	if len(f.enum) > 0 {
		vals := make([]json.RawMessage, len(f.enum))
		for i, e := range f.enum {
			vals[i] = f.literal(e)
		}
		s = s.set("enum", vals)
	}
	if f.min != "" {
		s = s.set("minimum", f.literal(f.min))
	}
	if f.max != "" {
		s = s.set("maximum", f.literal(f.max))
	}
	if f.def != "" {
		s = s.set("default", json.RawMessage(f.defaultJSON()))
	}
	if f.doc != "" {
		s = s.set("description", f.doc)
	}
	if f.secret {
		s = s.set("writeOnly", true)
	}
	return s
}

// literal is a tag's value as JSON: itself when it is a JSON number or
// literal and f is not a string, else a JSON string.
func (f field) literal(v string) json.RawMessage {
	if base(f.typ).Kind() != reflect.String && json.Valid([]byte(v)) {
		return json.RawMessage(v)
	}
	return json.RawMessage(strconv.Quote(v))
}

// schemerSchema is s's schema as an object, its keys sorted.
func schemerSchema(s Schemer) object {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(s.ConfigSchema(), &m); err != nil {
		return object{}
	}
	var o object
	for _, k := range slices.Sorted(maps.Keys(m)) {
		o = append(o, member{k, m[k]})
	}
	return o
}

// object is a JSON object that keeps its keys in order.
type object []member

// member is one key of an object.
type member struct {
	key   string
	value any
}

// set replaces key's value, or appends it.
func (o object) set(key string, value any) object {
	if i := slices.IndexFunc(o, func(m member) bool { return m.key == key }); i >= 0 {
		o[i].value = value
		return o
	}
	return append(o, member{key, value})
}

// MarshalJSON writes o's keys in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
