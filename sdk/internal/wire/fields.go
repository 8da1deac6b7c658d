package wire

import (
	"fmt"
	"time"

	pb "github.com/nous-dev/nous/sdk/internal/proto"
)

// FieldTypes lists the Go types a record field may hold, for error messages.
const FieldTypes = "string, int64, float64, bool, time.Time or []string"

// FieldsToProto converts a record's typed extra fields. int and int32 widen
// to int64 and float32 to float64; any other type is an error naming the
// field, because the receiving side could not represent it.
func FieldsToProto(fields map[string]any) ([]*pb.Field, error) {
	if len(fields) == 0 {
		return nil, nil
	}
	out := make([]*pb.Field, 0, len(fields))
	// One backing array for the whole record: one allocation, not one per field.
	backing := make([]pb.Field, len(fields))
	for name, v := range fields {
		f := &backing[len(out)]
		f.Name = ValidUTF8(name)
		if err := setValue(f, v); err != nil {
			return nil, fmt.Errorf("field %q: %w", name, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// setValue stores one field value in f.
func setValue(f *pb.Field, v any) error {
	switch v := v.(type) {
	case string:
		f.Value = &pb.Field_StringValue{StringValue: ValidUTF8(v)}
	case int64:
		f.Value = &pb.Field_IntValue{IntValue: v}
	case int:
		f.Value = &pb.Field_IntValue{IntValue: int64(v)}
	case int32:
		f.Value = &pb.Field_IntValue{IntValue: int64(v)}
	case float64:
		f.Value = &pb.Field_DoubleValue{DoubleValue: v}
	case float32:
		f.Value = &pb.Field_DoubleValue{DoubleValue: float64(v)}
	case bool:
		f.Value = &pb.Field_BoolValue{BoolValue: v}
	case time.Time:
		f.Value = &pb.Field_TimeValue{TimeValue: TimeToProto(v)}
	case []string:
		f.Value = &pb.Field_StringList{StringList: StringsToProto(v)}
	case nil:
		return fmt.Errorf("nil value (want %s)", FieldTypes)
	default:
		return fmt.Errorf("unsupported value type %T (want %s)", v, FieldTypes)
	}
	return nil
}

// FieldsFromProto converts typed extra fields received from the other side.
// A field with no value or a name seen twice is an error naming the field.
func FieldsFromProto(fields []*pb.Field) (map[string]any, error) {
	if len(fields) == 0 {
		return nil, nil
	}
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		name := f.GetName()
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("field %q: appears more than once", name)
		}
		v, err := valueFromProto(f)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}

// valueFromProto converts one field value: string, int64, float64, bool,
// time.Time or []string.
func valueFromProto(f *pb.Field) (any, error) {
	switch v := f.GetValue().(type) {
	case *pb.Field_StringValue:
		return v.StringValue, nil
	case *pb.Field_IntValue:
		return v.IntValue, nil
	case *pb.Field_DoubleValue:
		return v.DoubleValue, nil
	case *pb.Field_BoolValue:
		return v.BoolValue, nil
	case *pb.Field_TimeValue:
		if v.TimeValue == nil {
			return nil, fmt.Errorf("time value is empty")
		}
		return TimeFromProto(v.TimeValue)
	case *pb.Field_StringList:
		return StringsFromProto(v.StringList), nil
	default:
		return nil, fmt.Errorf("value has no type set (want %s)", FieldTypes)
	}
}

// StringsToProto wraps a string list, sharing ss unless a string in it
// needs its invalid UTF-8 replaced.
func StringsToProto(ss []string) *pb.StringList {
	for i, s := range ss {
		if ValidUTF8(s) != s {
			out := make([]string, len(ss))
			copy(out, ss[:i])
			for j := i; j < len(ss); j++ {
				out[j] = ValidUTF8(ss[j])
			}
			return &pb.StringList{Values: out}
		}
	}
	if ss == nil {
		ss = []string{}
	}
	return &pb.StringList{Values: ss}
}

// StringsFromProto unwraps a string list; a missing list is empty, not nil,
// so a field that was set stays distinguishable from one that was not.
func StringsFromProto(l *pb.StringList) []string {
	if v := l.GetValues(); v != nil {
		return v
	}
	return []string{}
}
