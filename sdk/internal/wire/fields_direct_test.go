package wire

import (
	"testing"
	"time"

	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// The direct encoding of every value reads back, through the generated
// code, as the generated path's encoding does, and FieldDecoder reads both.
func TestDirectFieldsMatchTheGeneratedPath(t *testing.T) {
	for _, tc := range valueCases() {
		t.Run(tc.name, func(t *testing.T) {
			in := map[string]any{"f": tc.in}
			direct, err := AppendFields(nil, 10, in)
			require.NoError(t, err)
			var got pb.Record
			require.NoError(t, proto.Unmarshal(direct, &got))
			fields, err := FieldsToProto(in)
			require.NoError(t, err)
			assert.True(t, proto.Equal(&pb.Record{Fields: fields}, &got), "got %v", &got)

			generated, err := proto.Marshal(&pb.Record{Fields: fields})
			require.NoError(t, err)
			for name, b := range map[string][]byte{"direct": direct, "generated": generated} {
				_, _, n := protowire.ConsumeTag(b)
				body, m := protowire.ConsumeBytes(b[n:])
				require.Positive(t, m)
				out := map[string]any{}
				require.NoError(t, new(FieldDecoder).Decode(body, out), name)
				assert.Equal(t, map[string]any{"f": tc.want}, out, name)
			}
		})
	}
}

func TestDirectFieldsRejectUnsupportedValues(t *testing.T) {
	_, err := AppendFields(nil, 10, map[string]any{"owner": struct{}{}})
	assert.EqualError(t, err, `field "owner": unsupported value type struct {} (want `+FieldTypes+`)`)
	_, err = AppendFields(nil, 10, map[string]any{"x": nil})
	assert.EqualError(t, err, `field "x": nil value (want `+FieldTypes+`)`)
}

func TestDecodeFieldRejectsMalformedFields(t *testing.T) {
	field := func(p *pb.Field) []byte {
		b, err := proto.Marshal(p)
		require.NoError(t, err)
		return b
	}
	tests := []struct {
		name string
		body []byte
		want string
	}{
		{"no value", field(&pb.Field{Name: "odd"}), `field "odd": value has no type set`},
		{"bad time", field(&pb.Field{Name: "at", Value: &pb.Field_TimeValue{TimeValue: &timestamppb.Timestamp{Nanos: -1}}}), `field "at": invalid timestamp`},
		{"truncated", field(&pb.Field{Name: "s", Value: &pb.Field_StringValue{StringValue: "abc"}})[:5], `field "s": unexpected EOF`},
		{"int as bytes", protowire.AppendString(protowire.AppendTag(nil, 3, protowire.BytesType), "x"), `field "": field 3 has wire type 2, want 0`},
		{"list value as varint", protowire.AppendBytes(protowire.AppendTag(nil, 7, protowire.BytesType), protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 1)), `field "": string list: field 1: wrong wire type`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.ErrorContains(t, new(FieldDecoder).Decode(tc.body, map[string]any{}), tc.want)
		})
	}
	dup := map[string]any{"a": true}
	assert.EqualError(t, new(FieldDecoder).Decode(field(&pb.Field{Name: "a", Value: &pb.Field_IntValue{}}), dup), `field "a": appears more than once`)
}

func TestTimestampTime(t *testing.T) {
	got, err := Timestamp{Seconds: 1, Nanos: 2}.Time()
	require.NoError(t, err)
	assert.Equal(t, time.Unix(1, 2).UTC(), got)
	for _, ts := range []Timestamp{{Seconds: minTimeSeconds - 1}, {Seconds: maxTimeSeconds + 1}, {Nanos: 1e9}, {Nanos: -1}} {
		_, err := ts.Time()
		assert.ErrorContains(t, err, "invalid timestamp", "%+v", ts)
	}
	for _, ts := range []Timestamp{{Seconds: minTimeSeconds}, {Seconds: maxTimeSeconds, Nanos: 999_999_999}} {
		_, err := ts.Time()
		assert.NoError(t, err, "%+v", ts)
	}
}

// The field numbers written by hand are plugin.proto's and timestamp.proto's.
func TestFieldNumbersMatchTheProto(t *testing.T) {
	check := func(m protoreflect.ProtoMessage, want map[protoreflect.Name]protowire.Number) {
		fields := m.ProtoReflect().Descriptor().Fields()
		assert.Equal(t, len(want), fields.Len(), "%s: every field is handled", m.ProtoReflect().Descriptor().FullName())
		for name, num := range want {
			require.NotNil(t, fields.ByName(name), name)
			assert.Equal(t, num, fields.ByName(name).Number(), name)
		}
	}
	check(&pb.Field{}, map[protoreflect.Name]protowire.Number{
		"name": fieldName, "string_value": fieldString, "int_value": fieldInt, "double_value": fieldDouble,
		"bool_value": fieldBool, "time_value": fieldTime, "string_list": fieldStringList,
	})
	check(&pb.StringList{}, map[protoreflect.Name]protowire.Number{"values": stringListValues})
	check(&timestamppb.Timestamp{}, map[protoreflect.Name]protowire.Number{"seconds": timeSeconds, "nanos": timeNanos})
}
