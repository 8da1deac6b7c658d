package wire

import (
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// Direct encoding of typed fields and timestamps, without the generated
// message types in between: a 10k-record fetch otherwise allocates a
// pb.Field, a oneof wrapper and often a Timestamp or StringList per field
// on each side. The bytes are the ones plugin.proto defines; the tests
// check them against the generated code.

// Field numbers of nous.plugin.v1.Field and google.protobuf.Timestamp.
const (
	fieldName        protowire.Number = 1
	fieldString      protowire.Number = 2
	fieldInt         protowire.Number = 3
	fieldDouble      protowire.Number = 4
	fieldBool        protowire.Number = 5
	fieldTime        protowire.Number = 6
	fieldStringList  protowire.Number = 7
	stringListValues protowire.Number = 1
	timeSeconds      protowire.Number = 1
	timeNanos        protowire.Number = 2
)

// AppendFields appends each of fields as a nous.plugin.v1.Field message
// with field number num. On error, which names the field, b may hold
// some of the fields: the caller cuts it back.
func AppendFields(b []byte, num protowire.Number, fields map[string]any) ([]byte, error) {
	for name, v := range fields {
		var err error
		if b, err = appendField(b, num, name, v); err != nil {
			return b, fmt.Errorf("field %q: %w", name, err)
		}
	}
	return b, nil
}

// appendField appends one Field message: the tag, its length, the name and
// the value. int and int32 widen to int64, float32 to float64.
func appendField(b []byte, num protowire.Number, name string, v any) ([]byte, error) {
	name = ValidUTF8(name)
	size := 0
	if name != "" {
		size = sizeBytes(fieldName, len(name))
	}
	var (
		i  int64
		ss []string
	)
	switch v := v.(type) {
	case string:
		v = ValidUTF8(v)
		b = appendFieldHead(b, num, size+sizeBytes(fieldString, len(v)), name)
		return appendString(b, fieldString, v), nil
	case int64:
		i = v
	case int:
		i = int64(v)
	case int32:
		i = int64(v)
	case float64:
		return appendDouble(b, num, size, name, v), nil
	case float32:
		return appendDouble(b, num, size, name, float64(v)), nil
	case bool:
		b = appendFieldHead(b, num, size+protowire.SizeTag(fieldBool)+1, name)
		return protowire.AppendVarint(protowire.AppendTag(b, fieldBool, protowire.VarintType), protowire.EncodeBool(v)), nil
	case time.Time:
		body := sizeTime(v)
		b = appendFieldHead(b, num, size+sizeBytes(fieldTime, body), name)
		return appendTimeBody(protowire.AppendVarint(protowire.AppendTag(b, fieldTime, protowire.BytesType), uint64(body)), v), nil
	case []string:
		ss = v
		body := 0
		for _, s := range ss {
			body += sizeBytes(stringListValues, len(ValidUTF8(s)))
		}
		b = appendFieldHead(b, num, size+sizeBytes(fieldStringList, body), name)
		b = protowire.AppendVarint(protowire.AppendTag(b, fieldStringList, protowire.BytesType), uint64(body))
		for _, s := range ss {
			b = appendString(b, stringListValues, ValidUTF8(s))
		}
		return b, nil
	case nil:
		return b, fmt.Errorf("nil value (want %s)", FieldTypes)
	default:
		return b, fmt.Errorf("unsupported value type %T (want %s)", v, FieldTypes)
	}
	b = appendFieldHead(b, num, size+protowire.SizeTag(fieldInt)+protowire.SizeVarint(uint64(i)), name)
	return protowire.AppendVarint(protowire.AppendTag(b, fieldInt, protowire.VarintType), uint64(i)), nil
}

func appendDouble(b []byte, num protowire.Number, size int, name string, f float64) []byte {
	b = appendFieldHead(b, num, size+protowire.SizeTag(fieldDouble)+protowire.SizeFixed64(), name)
	return protowire.AppendFixed64(protowire.AppendTag(b, fieldDouble, protowire.Fixed64Type), math.Float64bits(f))
}

// appendFieldHead appends a Field message's tag and length and its name.
func appendFieldHead(b []byte, num protowire.Number, size int, name string) []byte {
	b = protowire.AppendVarint(protowire.AppendTag(b, num, protowire.BytesType), uint64(size))
	if name != "" {
		b = appendString(b, fieldName, name)
	}
	return b
}

// appendString appends a length-delimited field; empty strings too, as a
// repeated or oneof field needs them.
func appendString(b []byte, num protowire.Number, s string) []byte {
	return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
}

// sizeBytes is the encoded size of length-delimited field num of n bytes.
func sizeBytes(num protowire.Number, n int) int {
	return protowire.SizeTag(num) + protowire.SizeBytes(n)
}

// AppendTime appends t as a google.protobuf.Timestamp with field number
// num; the zero time is absent and appends nothing.
func AppendTime(b []byte, num protowire.Number, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	b = protowire.AppendVarint(protowire.AppendTag(b, num, protowire.BytesType), uint64(sizeTime(t)))
	return appendTimeBody(b, t)
}

func sizeTime(t time.Time) int {
	n := 0
	if s := t.Unix(); s != 0 {
		n += 1 + protowire.SizeVarint(uint64(s))
	}
	if ns := t.Nanosecond(); ns != 0 {
		n += 1 + protowire.SizeVarint(uint64(ns))
	}
	return n
}

func appendTimeBody(b []byte, t time.Time) []byte {
	if s := t.Unix(); s != 0 {
		b = protowire.AppendVarint(protowire.AppendTag(b, timeSeconds, protowire.VarintType), uint64(s))
	}
	if ns := t.Nanosecond(); ns != 0 {
		b = protowire.AppendVarint(protowire.AppendTag(b, timeNanos, protowire.VarintType), uint64(ns))
	}
	return b
}
