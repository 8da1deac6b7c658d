package fromproto_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/fromproto"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/toproto"
	"github.com/nous-dev/nous/sdk/internal/wire"
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
			_, _ = fromproto.FetchRequest(m)
		}
		if m := new(pb.FetchResponse); decode(m) {
			for _, r := range m.GetRecords() {
				_, _ = fromproto.Record(r)
			}
		}
		if m := new(pb.InvokeRequest); decode(m) {
			want, wantErr := fromproto.InvokeRequest(m)
			got, err := fromproto.ReadInvokeRequest(data)
			if wantErr == nil && err == nil && !cmp.Equal(want, got, cmpopts.EquateEmpty()) {
				t.Errorf("the direct decoder read %+v, the generated one %+v", got, want)
			}
		} else {
			_, _ = fromproto.ReadInvokeRequest(data)
		}
		if m := new(pb.InvokeResponse); decode(m) {
			_ = fromproto.InvokeResponse(m)
		}
		if m := new(pb.ConfigureResponse); decode(m) {
			_ = fromproto.Diagnostics(m.GetDiagnostics())
		}
		if m := new(pb.SourceInfo); decode(m) {
			_ = fromproto.SourceInfo(m)
		}
		if m := new(pb.AgentInfo); decode(m) {
			_ = fromproto.AgentInfo(m)
		}
	})
}

type vtMarshaler interface{ MarshalVT() ([]byte, error) }

// FuzzChunkReader feeds arbitrary bytes to the host's direct decoder of
// fetch chunks: it may fail, never panic; where the generated decoder and
// recordFromProto also accept the bytes, both read the same records; and
// what it reads encodes and reads back unchanged.
func FuzzChunkReader(f *testing.F) {
	for _, r := range wireRecords() {
		b, err := toproto.AppendRecord(nil, r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x0a, 0x04, 0x52, 0x02, 0x1a, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		var c fromproto.ChunkReader
		c.Reset(data)
		var direct []sdk.Record
		for {
			r, ok, err := c.Next()
			if err != nil {
				return
			}
			if !ok {
				break
			}
			direct = append(direct, r)
		}
		var again []byte
		for _, r := range direct {
			var err error
			if again, err = toproto.AppendRecord(again, r); err != nil {
				t.Fatalf("a record read from the wire cannot be sent back: %v", err)
			}
		}
		var valid []sdk.Record
		for _, r := range direct {
			valid = append(valid, validUTF8Record(r))
		}
		if back := readRecords(t, again); !equalRecords(back, valid) {
			t.Fatalf("re-encoded records differ:\n%v\n%v", back, direct)
		}
		var m pb.FetchResponse // its strings are no more checked than the direct decoder's
		if m.UnmarshalVT(data) != nil {
			return
		}
		var generated []sdk.Record
		for _, p := range m.GetRecords() {
			r, err := fromproto.Record(p)
			if err != nil {
				return
			}
			generated = append(generated, r)
		}
		if !equalRecords(generated, direct) {
			t.Fatalf("direct and generated decoding differ:\n%v\n%v", direct, generated)
		}
	})
}

func readRecords(t *testing.T, b []byte) []sdk.Record {
	var c fromproto.ChunkReader
	c.Reset(b)
	var out []sdk.Record
	for {
		r, ok, err := c.Next()
		if err != nil {
			t.Fatalf("reading re-encoded records: %v", err)
		}
		if !ok {
			return out
		}
		out = append(out, r)
	}
}

// equalRecords compares records as reflect.DeepEqual does, except that a
// NaN field equals itself.
func equalRecords(a, b []sdk.Record) bool {
	return cmp.Equal(a, b, cmpopts.EquateNaNs())
}

// validUTF8Record is r as the sending side encodes it: every string valid
// UTF-8.
func validUTF8Record(r sdk.Record) sdk.Record {
	v := wire.ValidUTF8
	out := sdk.Record{ID: v(r.ID), Source: v(r.Source), Kind: v(r.Kind), Title: v(r.Title), Body: v(r.Body),
		URL: v(r.URL), Author: v(r.Author), Time: r.Time, Tier: r.Tier}
	if r.Fields != nil {
		out.Fields = map[string]any{}
	}
	for k, x := range r.Fields {
		switch x := x.(type) {
		case string:
			out.Fields[v(k)] = v(x)
		case []string:
			l := make([]string, len(x))
			for i, s := range x {
				l[i] = v(s)
			}
			out.Fields[v(k)] = l
		default:
			out.Fields[v(k)] = x
		}
	}
	return out
}
