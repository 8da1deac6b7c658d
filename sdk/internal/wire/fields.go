package wire

import (
	"fmt"
	"time"

	pb "github.com/nous-dev/nous/sdk/proto/pluginv1"
)

// FieldTypes lists the Go types a record field may hold, for error messages.
const FieldTypes = "string, int64, float64, bool, time.Time or []string"

// FieldsToProto converts a record's typed extra fields. int and int32 widen
// to int64 and float32 to float64; any other type is an error naming the
// field, because the receiving side could not represent it.
func FieldsToProto(fields map[string]any) (map[string]*pb.Value, error) {
	if len(fields) == 0 {
		return nil, nil
	}
	out := make(map[string]*pb.Value, len(fields))
	for name, v := range fields {
		pv, err := ValueToProto(v)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", name, err)
		}
		out[String(name)] = pv
	}
	return out, nil
}

// ValueToProto converts one field value.
func ValueToProto(v any) (*pb.Value, error) {
	switch v := v.(type) {
	case string:
		return &pb.Value{Kind: &pb.Value_StringValue{StringValue: String(v)}}, nil
	case int64:
		return &pb.Value{Kind: &pb.Value_IntValue{IntValue: v}}, nil
	case int:
		return &pb.Value{Kind: &pb.Value_IntValue{IntValue: int64(v)}}, nil
	case int32:
		return &pb.Value{Kind: &pb.Value_IntValue{IntValue: int64(v)}}, nil
	case float64:
		return &pb.Value{Kind: &pb.Value_DoubleValue{DoubleValue: v}}, nil
	case float32:
		return &pb.Value{Kind: &pb.Value_DoubleValue{DoubleValue: float64(v)}}, nil
	case bool:
		return &pb.Value{Kind: &pb.Value_BoolValue{BoolValue: v}}, nil
	case time.Time:
		return &pb.Value{Kind: &pb.Value_TimeValue{TimeValue: TimeToProto(v)}}, nil
	case []string:
		return &pb.Value{Kind: &pb.Value_StringList{StringList: StringsToProto(v)}}, nil
	case nil:
		return nil, fmt.Errorf("nil value (want %s)", FieldTypes)
	default:
		return nil, fmt.Errorf("unsupported value type %T (want %s)", v, FieldTypes)
	}
}

// FieldsFromProto converts typed extra fields received from the other side.
// A value with no kind set is an error naming the field.
func FieldsFromProto(fields map[string]*pb.Value) (map[string]any, error) {
	if len(fields) == 0 {
		return nil, nil
	}
	out := make(map[string]any, len(fields))
	for name, pv := range fields {
		v, err := ValueFromProto(pv)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}

// ValueFromProto converts one field value: string, int64, float64, bool,
// time.Time or []string.
func ValueFromProto(pv *pb.Value) (any, error) {
	switch k := pv.GetKind().(type) {
	case *pb.Value_StringValue:
		return k.StringValue, nil
	case *pb.Value_IntValue:
		return k.IntValue, nil
	case *pb.Value_DoubleValue:
		return k.DoubleValue, nil
	case *pb.Value_BoolValue:
		return k.BoolValue, nil
	case *pb.Value_TimeValue:
		if k.TimeValue == nil {
			return nil, fmt.Errorf("time value is empty")
		}
		return TimeFromProto(k.TimeValue)
	case *pb.Value_StringList:
		return StringsFromProto(k.StringList), nil
	default:
		return nil, fmt.Errorf("value has no type set (want %s)", FieldTypes)
	}
}

// StringsToProto wraps a string list.
func StringsToProto(ss []string) *pb.StringList {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = String(s)
	}
	return &pb.StringList{Values: out}
}

// StringsFromProto unwraps a string list; a missing list is empty, not nil,
// so a field that was set stays distinguishable from one that was not.
func StringsFromProto(l *pb.StringList) []string {
	if v := l.GetValues(); v != nil {
		return v
	}
	return []string{}
}
