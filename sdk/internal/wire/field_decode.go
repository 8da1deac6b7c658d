package wire

import (
	"errors"
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Decoding of typed fields and timestamps straight from a received chunk's
// bytes; the encoding side, and why, is in field_encode.go.

// Timestamp is a google.protobuf.Timestamp being decoded. Two occurrences
// of one message field merge, as protobuf requires, hence a value that
// ConsumeTime adds to rather than a result.
type Timestamp struct {
	Seconds int64
	Nanos   int32
}

// ConsumeTime decodes the body of a google.protobuf.Timestamp into ts.
func ConsumeTime(b []byte, ts *Timestamp) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		switch {
		case num == timeSeconds && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			ts.Seconds, b = int64(v), b[n:]
		case num == timeNanos && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			ts.Nanos, b = int32(v), b[n:]
		default:
			if n = consumeOther(b, num, typ, timeSeconds, timeNanos); n < 0 {
				return wireError(num, n)
			}
			b = b[n:]
		}
	}
	return nil
}

// The range google.protobuf.Timestamp allows: 0001-01-01 to 9999-12-31.
const (
	minTimeSeconds = -62135596800
	maxTimeSeconds = 253402300799
)

// Time converts ts to a UTC time, as TimeFromProto does, with its errors.
func (ts Timestamp) Time() (time.Time, error) {
	if ts.Seconds < minTimeSeconds || ts.Seconds > maxTimeSeconds || ts.Nanos < 0 || ts.Nanos >= 1e9 {
		return TimeFromProto(ts.proto())
	}
	return time.Unix(ts.Seconds, int64(ts.Nanos)).UTC(), nil
}

func (ts Timestamp) proto() *timestamppb.Timestamp {
	return &timestamppb.Timestamp{Seconds: ts.Seconds, Nanos: ts.Nanos}
}

// FieldDecoder decodes nous.plugin.v1.Field messages into a record's field
// map. String lists take their backing arrays from a shared slab and every
// empty list is one boxed value, so a list costs one allocation (its
// interface box) rather than three; a list kept pins its slab (at most 4 KiB), as
// its strings already pin the chunk they point into.
type FieldDecoder struct {
	slab  []string
	empty any // []string{}, boxed once
}

// Slabs start small, for a fetch of a few records, and double up to
// maxSlabStrings.
const (
	minSlabStrings = 16
	maxSlabStrings = 256
)

// list returns an empty list of capacity n from the slab.
func (d *FieldDecoder) list(n int) []string {
	if cap(d.slab)-len(d.slab) < n {
		size := min(max(2*cap(d.slab), minSlabStrings), maxSlabStrings)
		d.slab = make([]string, 0, max(size, n))
	}
	l := d.slab[len(d.slab) : len(d.slab) : len(d.slab)+n]
	d.slab = d.slab[:len(d.slab)+n]
	return l
}

// Decode decodes one Field message body into fields. A field with no
// value, or a name already in fields, is an error naming the field.
// Strings point into b.
func (d *FieldDecoder) Decode(b []byte, fields map[string]any) error {
	var (
		name string
		kind protowire.Number // the oneof member last seen, 0 for none
		val  any
		ts   Timestamp
		list []string
	)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("field %q: %w", name, protowire.ParseError(n))
		}
		b = b[n:]
		want := protowire.BytesType
		switch num {
		case fieldInt, fieldBool:
			want = protowire.VarintType
		case fieldDouble:
			want = protowire.Fixed64Type
		}
		if num < fieldName || num > fieldStringList {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return fmt.Errorf("field %q: %w", name, protowire.ParseError(n))
			}
			b = b[n:]
			continue
		}
		if typ != want {
			return fmt.Errorf("field %q: field %d has wire type %d, want %d", name, num, typ, want)
		}
		var (
			v   uint64
			buf []byte
		)
		switch want {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.Fixed64Type:
			v, n = protowire.ConsumeFixed64(b)
		default:
			buf, n = protowire.ConsumeBytes(b)
		}
		if n < 0 {
			return fmt.Errorf("field %q: %w", name, protowire.ParseError(n))
		}
		b = b[n:]
		switch num {
		case fieldName:
			name = UnsafeString(buf)
			continue
		case fieldString:
			val = UnsafeString(buf)
		case fieldInt:
			val = int64(v)
		case fieldDouble:
			val = math.Float64frombits(v)
		case fieldBool:
			val = v != 0
		case fieldTime:
			if kind != fieldTime {
				ts = Timestamp{}
			}
			if err := ConsumeTime(buf, &ts); err != nil {
				return fmt.Errorf("field %q: time value: %w", name, err)
			}
		case fieldStringList:
			if kind != fieldStringList {
				list = nil
			}
			var err error
			if list, err = d.consumeStrings(buf, list); err != nil {
				return fmt.Errorf("field %q: string list: %w", name, err)
			}
		}
		kind = num
	}
	switch kind {
	case 0:
		return fmt.Errorf("field %q: value has no type set (want %s)", name, FieldTypes)
	case fieldTime:
		t, err := ts.Time()
		if err != nil {
			return fmt.Errorf("field %q: %w", name, err)
		}
		val = t
	case fieldStringList:
		if len(list) == 0 {
			if d.empty == nil {
				d.empty = []string{}
			}
			val = d.empty
		} else {
			val = list
		}
	}
	// One hash instead of a lookup and an insert: a name seen before leaves
	// the length unchanged (and the record, being an error, is dropped).
	n := len(fields)
	if fields[name] = val; len(fields) == n {
		return fmt.Errorf("field %q: appears more than once", name)
	}
	return nil
}

// consumeStrings appends the values of a StringList body to list (which is
// nil unless a second string_list merges into the first).
func (d *FieldDecoder) consumeStrings(b []byte, list []string) ([]string, error) {
	if list == nil {
		list = d.list(countStrings(b))
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return list, protowire.ParseError(n)
		}
		b = b[n:]
		if num != stringListValues || typ != protowire.BytesType {
			if n = consumeOther(b, num, typ, stringListValues, stringListValues); n < 0 {
				return list, wireError(num, n)
			}
			b = b[n:]
			continue
		}
		s, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return list, protowire.ParseError(n)
		}
		b = b[n:]
		list = append(list, UnsafeString(s))
	}
	return list, nil
}

// countStrings counts the values of a well-formed StringList body, so its
// list is allocated once; malformed bytes stop the count, and the decoding
// that follows reports them.
func countStrings(b []byte) int {
	n := 0
	for len(b) > 0 {
		num, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return n
		}
		b = b[k:]
		if k = protowire.ConsumeFieldValue(num, typ, b); k < 0 {
			return n
		}
		b = b[k:]
		if num == stringListValues {
			n++
		}
	}
	return n
}

// errWireType reports a known field sent with the wrong wire type.
var errWireType = errors.New("wrong wire type")

// wrongType is consumeOther's result for a known field with the wrong wire
// type; protowire's own error codes are small negative numbers.
const wrongType = -1000

// consumeOther skips an unknown field, or reports wrongType for a known
// one (lo..hi) with the wrong wire type, which the generated decoder
// rejects too.
func consumeOther(b []byte, num protowire.Number, typ protowire.Type, lo, hi protowire.Number) int {
	if num >= lo && num <= hi {
		return wrongType
	}
	return protowire.ConsumeFieldValue(num, typ, b)
}

// wireError is the error for a negative consumeOther result.
func wireError(num protowire.Number, n int) error {
	if n == wrongType {
		return fmt.Errorf("field %d: %w", num, errWireType)
	}
	return protowire.ParseError(n)
}
