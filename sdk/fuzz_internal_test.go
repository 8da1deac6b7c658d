package sdk

import (
	"testing"

	"github.com/nous-dev/nous/sdk/internal/wire"
	pb "github.com/nous-dev/nous/sdk/proto/pluginv1"
	"google.golang.org/grpc/mem"
)

// FuzzFromWire feeds arbitrary bytes, as every message type either side
// receives, through the codec and the conversions: they may fail, never
// panic.
func FuzzFromWire(f *testing.F) {
	seeds := []vtMarshaler{
		&pb.FetchRequest{Query: "q", Filters: map[string]*pb.StringList{"projects": {Values: []string{"pay"}}}, Limit: 5},
		&pb.FetchResponse{Records: []*pb.Record{{Id: "a", Fields: []*pb.Field{{Name: "n", Value: &pb.Field_IntValue{IntValue: 1}}}}}},
		&pb.InvokeRequest{Role: "writer", Input: []byte(`{}`), Context: []*pb.Record{{Id: "c"}}},
		&pb.InvokeResponse{Output: []byte(`{}`), Usage: &pb.Usage{PromptTokens: 3}},
		&pb.ConfigureResponse{Diagnostics: []*pb.Diagnostic{{Severity: pb.Severity_SEVERITY_ERROR, Summary: "x"}}},
	}
	for _, m := range seeds {
		b, err := m.MarshalVT()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		decode := func(m any) bool {
			return wire.Codec{}.Unmarshal(mem.BufferSlice{mem.SliceBuffer(data)}, m) == nil
		}
		if m := new(pb.FetchRequest); decode(m) {
			_, _ = fetchRequestFromProto(m)
		}
		if m := new(pb.FetchResponse); decode(m) {
			for _, r := range m.GetRecords() {
				_, _ = recordFromProto(r)
			}
		}
		if m := new(pb.InvokeRequest); decode(m) {
			_, _ = invokeRequestFromProto(m)
		}
		if m := new(pb.InvokeResponse); decode(m) {
			_ = invokeResponseFromProto(m)
		}
		if m := new(pb.ConfigureResponse); decode(m) {
			_ = diagnosticsFromProto(m.GetDiagnostics())
		}
		if m := new(pb.SourceInfo); decode(m) {
			_ = sourceInfoFromProto(m)
		}
		if m := new(pb.AgentInfo); decode(m) {
			_ = agentInfoFromProto(m)
		}
	})
}

type vtMarshaler interface{ MarshalVT() ([]byte, error) }
