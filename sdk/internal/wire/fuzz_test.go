package wire

import (
	"testing"
	"time"

	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// FuzzRecordFromWire feeds arbitrary bytes to the receiving side's
// conversions: they may fail, never panic.
func FuzzRecordFromWire(f *testing.F) {
	seed := []*pb.Record{
		{Id: "a", Time: timestamppb.New(time.Unix(1, 0))},
		{Id: "b", Fields: []*pb.Field{{Name: "x", Value: &pb.Field_StringList{StringList: &pb.StringList{Values: []string{"v"}}}}}},
		{Id: "c", Fields: []*pb.Field{{Name: "t", Value: &pb.Field_TimeValue{TimeValue: &timestamppb.Timestamp{Nanos: -1}}}}},
	}
	for _, r := range seed {
		b, err := proto.Marshal(r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var r pb.Record
		// the generated decoder the sdk's codec uses, on arbitrary bytes
		if (Codec{}).Unmarshal(mem.BufferSlice{mem.SliceBuffer(data)}, &r) != nil {
			return
		}
		_, _ = TimeFromProto(r.GetTime())
		fields, err := FieldsFromProto(r.GetFields())
		if err != nil {
			return
		}
		if _, err := FieldsToProto(fields); err != nil {
			t.Fatalf("a field read from the wire cannot be sent back: %v", err)
		}
	})
}
