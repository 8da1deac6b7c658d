package wire

import (
	"testing"
	"time"

	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

type valueCase struct {
	name string
	in   any
	want any
}

// valueCases are field values with what arrives on the other side.
func valueCases() []valueCase {
	at := time.Date(2026, 5, 1, 12, 0, 0, 42, time.UTC)
	return []valueCase{
		{"string", "pay", "pay"},
		{"empty string", "", ""},
		{"int64", int64(-7), int64(-7)},
		{"int widens", 3, int64(3)},
		{"int32 widens", int32(3), int64(3)},
		{"float64", 0.25, 0.25},
		{"float32 widens", float32(0.5), 0.5},
		{"bool", true, true},
		{"time", at, at},
		{"time in another zone arrives in UTC", at.In(time.FixedZone("CEST", 2*3600)), at},
		{"string list", []string{"a", "b"}, []string{"a", "b"}},
		{"empty string list stays a list", []string{}, []string{}},
		{"nil string list becomes empty", []string(nil), []string{}},
		{"before 1970", time.Date(1900, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(1900, 1, 1, 0, 0, 0, 1, time.UTC)},
		{"large int", int64(-1 << 62), int64(-1 << 62)},
	}
}

func TestValuesRoundTrip(t *testing.T) {
	for _, tc := range valueCases() {
		t.Run(tc.name, func(t *testing.T) {
			fields, err := FieldsToProto(map[string]any{"f": tc.in})
			require.NoError(t, err)
			// through bytes, as on the wire
			b, err := proto.Marshal(&pb.Record{Fields: fields})
			require.NoError(t, err)
			var back pb.Record
			require.NoError(t, proto.Unmarshal(b, &back))
			got, err := FieldsFromProto(back.GetFields())
			require.NoError(t, err)
			assert.Equal(t, map[string]any{"f": tc.want}, got)
		})
	}
}

func TestUnsupportedValuesNameTheField(t *testing.T) {
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"map", map[string]any{"a": 1}, `field "f": unsupported value type map[string]interface {} (want string, int64, float64, bool, time.Time or []string)`},
		{"uint", uint(1), `field "f": unsupported value type uint`},
		{"int slice", []int{1}, `field "f": unsupported value type []int`},
		{"pointer", new(string), `field "f": unsupported value type *string`},
		{"nil", nil, `field "f": nil value`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FieldsToProto(map[string]any{"f": tc.value})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestFieldsFromProtoRejectsMalformedFields(t *testing.T) {
	tests := []struct {
		name   string
		fields []*pb.Field
		want   string
	}{
		{"no value", []*pb.Field{{Name: "ok", Value: &pb.Field_BoolValue{}}, {Name: "odd"}}, `field "odd": value has no type set (want string, int64, float64, bool, time.Time or []string)`},
		{"nil field", []*pb.Field{nil}, `field "": value has no type set`},
		{"empty time", []*pb.Field{{Name: "at", Value: &pb.Field_TimeValue{}}}, `field "at": time value is empty`},
		{"duplicate", []*pb.Field{{Name: "a", Value: &pb.Field_IntValue{}}, {Name: "a", Value: &pb.Field_IntValue{}}}, `field "a": appears more than once`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FieldsFromProto(tc.fields)
			require.Error(t, err)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

func TestEmptyFieldsAndFiltersStayNil(t *testing.T) {
	f, err := FieldsToProto(nil)
	require.NoError(t, err)
	assert.Nil(t, f)
	back, err := FieldsFromProto(nil)
	require.NoError(t, err)
	assert.Nil(t, back)
	assert.Nil(t, FiltersToProto(map[string][]string{}))
	assert.Nil(t, FiltersFromProto(nil))
}

func TestFiltersRoundTrip(t *testing.T) {
	in := map[string][]string{"projects": {"pay", "api"}, "dates": {"last week"}, "empty": {}}
	assert.Equal(t, in, FiltersFromProto(FiltersToProto(in)))
}

func TestTimes(t *testing.T) {
	assert.Nil(t, TimeToProto(time.Time{}), "zero time is absent")
	got, err := TimeFromProto(nil)
	require.NoError(t, err)
	assert.True(t, got.IsZero())
	epoch, err := TimeFromProto(TimeToProto(time.Unix(0, 0)))
	require.NoError(t, err)
	assert.Equal(t, time.Unix(0, 0).UTC(), epoch, "the epoch is a time, not absent")
}

func TestStringReplacesInvalidUTF8(t *testing.T) {
	assert.Equal(t, "ok ✓", ValidUTF8("ok ✓"))
	assert.Equal(t, "a\uFFFDb", ValidUTF8("a\xffb"))
	assert.Equal(t, "\uFFFD", ValidUTF8("\xff\xfe"), "a run of bad bytes is one replacement")
}
