package fromproto_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/fromproto"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/toproto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

var at = time.Date(2026, 5, 1, 12, 30, 0, 123, time.UTC)

// wireRecords are records whose encoding exercises every branch of
// AppendRecord: empty and absent values, oneof zero values (which must be
// present), times before 1970, negative numbers, invalid UTF-8, and bodies
// whose length prefix needs one, two or three bytes.
func wireRecords() map[string]sdk.Record {
	return map[string]sdk.Record{
		"empty":         {},
		"id only":       {ID: "a"},
		"all":           {ID: "r1", Source: "gitlab.example.com", Kind: sdk.KindIssue, Title: "t", Body: "b", URL: "https://x", Author: "ana", Time: at, Tier: 2},
		"negative tier": {ID: "n", Tier: -3},
		"before 1970":   {ID: "old", Time: time.Date(1901, 2, 3, 4, 5, 6, 7, time.UTC)},
		"epoch":         {ID: "epoch", Time: time.Unix(0, 0)},
		"other zone":    {ID: "z", Time: at.In(time.FixedZone("CEST", 2*3600))},
		"invalid utf8":  {ID: "x\xff", Body: "caf\xe9", Fields: map[string]any{"k\xfe": "v\xff", "l": []string{"ok", "\xff"}}},
		"long body":     {ID: "long", Body: strings.Repeat("é", 20_000)},
		"mid body":      {ID: "mid", Body: strings.Repeat("x", 200)},
		"typed fields": {ID: "f", Fields: map[string]any{
			"s": "pay", "empty string": "", "i": int64(-7), "zero": int64(0), "int": 300, "int32": int32(-1),
			"f": 0.25, "f0": 0.0, "f32": float32(0.5), "t": true, "no": false, "at": at,
			"list": []string{"a", "", "b"}, "empty list": []string{}, "nil list": []string(nil), "": "unnamed",
		}},
	}
}

// sortedFields orders a record's fields by name: Fields is a map, so the
// order on the wire is not fixed.
func sortedFields(p *pb.Record) *pb.Record {
	slices.SortFunc(p.Fields, func(a, b *pb.Field) int { return strings.Compare(a.GetName(), b.GetName()) })
	return p
}

// The direct encoding is what the generated code reads, and it means what
// recordToProto (the generated messages' path) means.
func TestAppendRecordIsTheProtocolEncoding(t *testing.T) {
	for name, r := range wireRecords() {
		t.Run(name, func(t *testing.T) {
			b, err := toproto.AppendRecord(nil, r)
			require.NoError(t, err)
			var got pb.FetchResponse
			require.NoError(t, proto.Unmarshal(b, &got), "the reference decoder reads it (UTF-8 checked)")
			require.Len(t, got.Records, 1)
			want, err := toproto.Record(r)
			require.NoError(t, err)
			assert.True(t, proto.Equal(sortedFields(want), sortedFields(got.Records[0])), "got %v\nwant %v", got.Records[0], want)
		})
	}
}

// Records the generated code encodes read back as recordFromProto reads
// them, and records the sdk encodes read back the same.
func TestChunkReaderReadsWhatRecordFromProtoReads(t *testing.T) {
	var generated, direct []byte
	var want []sdk.Record
	for _, r := range wireRecords() {
		p, err := toproto.Record(r)
		require.NoError(t, err)
		one, err := proto.Marshal(&pb.FetchResponse{Records: []*pb.Record{p}})
		require.NoError(t, err)
		generated = append(generated, one...)
		direct, err = toproto.AppendRecord(direct, r)
		require.NoError(t, err)
		w, err := fromproto.Record(p)
		require.NoError(t, err)
		want = append(want, w)
	}
	for name, chunk := range map[string][]byte{"generated": generated, "direct": direct} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, want, readAll(t, chunk))
		})
	}
}

func readAll(t *testing.T, chunk []byte) []sdk.Record {
	t.Helper()
	var c fromproto.ChunkReader
	c.Reset(chunk)
	var got []sdk.Record
	for {
		r, ok, err := c.Next()
		require.NoError(t, err)
		if !ok {
			return got
		}
		got = append(got, r)
	}
}

// A zero time.Time field value arrives as the zero time; through the
// generated messages it used to arrive as the Unix epoch.
func TestZeroTimeFieldStaysZero(t *testing.T) {
	b, err := toproto.AppendRecord(nil, sdk.Record{ID: "z", Fields: map[string]any{"closed_at": time.Time{}}})
	require.NoError(t, err)
	got := readAll(t, b)
	require.Len(t, got, 1)
	assert.True(t, got[0].Fields["closed_at"].(time.Time).IsZero())
}

func TestAppendRecordLeavesTheBufferAloneOnError(t *testing.T) {
	prefix := []byte("earlier records")
	b, err := toproto.AppendRecord(slices.Clone(prefix), sdk.Record{ID: "bad", Fields: map[string]any{"ok": 1, "owner": map[string]string{}}})
	require.Error(t, err)
	assert.EqualError(t, err, `record "bad": field "owner": unsupported value type map[string]string (want string, int64, float64, bool, time.Time or []string)`)
	assert.Equal(t, prefix, b)
}

// A newer plugin may add fields to any message; this sdk skips them.
func TestChunkReaderSkipsUnknownFields(t *testing.T) {
	field := protowire.AppendTag(nil, 1, protowire.BytesType)
	field = protowire.AppendString(field, "n")
	field = protowire.AppendTag(field, 9, protowire.Fixed32Type) // unknown
	field = protowire.AppendFixed32(field, 7)
	field = protowire.AppendTag(field, 3, protowire.VarintType)
	field = protowire.AppendVarint(field, 5)

	var rec []byte
	rec = protowire.AppendTag(rec, 11, protowire.BytesType) // unknown
	rec = protowire.AppendString(rec, "future")
	rec = protowire.AppendTag(rec, 1, protowire.BytesType)
	rec = protowire.AppendString(rec, "r")
	rec = protowire.AppendTag(rec, 10, protowire.BytesType)
	rec = protowire.AppendBytes(rec, field)

	var chunk []byte
	chunk = protowire.AppendTag(chunk, 2, protowire.VarintType) // unknown
	chunk = protowire.AppendVarint(chunk, 1)
	chunk = protowire.AppendTag(chunk, 1, protowire.BytesType)
	chunk = protowire.AppendBytes(chunk, rec)

	assert.Equal(t, []sdk.Record{{ID: "r", Fields: map[string]any{"n": int64(5)}}}, readAll(t, chunk))
}

// Repeated scalars keep the last value and a repeated time merges, as the
// generated decoder does.
func TestChunkReaderFollowsProtobufMergeRules(t *testing.T) {
	var chunk []byte
	for _, p := range []*pb.Record{
		{Id: "first", Tier: 1, Time: &timestamppb.Timestamp{Seconds: 100}},
		{Id: "second", Tier: 2, Time: &timestamppb.Timestamp{Nanos: 5}},
	} {
		b, err := proto.Marshal(p)
		require.NoError(t, err)
		chunk = append(chunk, b...)
	}
	// Two sdk.Record messages concatenated are one merged Record.
	frame := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), chunk)
	var viaGenerated pb.FetchResponse
	require.NoError(t, viaGenerated.UnmarshalVT(frame))
	want, err := fromproto.Record(viaGenerated.Records[0])
	require.NoError(t, err)

	assert.Equal(t, []sdk.Record{want}, readAll(t, frame))
	assert.Equal(t, sdk.Record{ID: "second", Tier: 2, Time: time.Unix(100, 5).UTC()}, want)
}

func TestChunkReaderRejectsMalformedBytes(t *testing.T) {
	good, err := toproto.AppendRecord(nil, sdk.Record{ID: "a", Fields: map[string]any{"n": 1}})
	require.NoError(t, err)
	wrongType := protowire.AppendTag(nil, 1, protowire.BytesType)
	wrongType = protowire.AppendBytes(wrongType, protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), 1))
	tests := []struct {
		name  string
		chunk []byte
		want  string
	}{
		{"truncated record", good[:len(good)-1], "fetch response: record: unexpected EOF"},
		{"truncated inside", append([]byte{0x0a, 0x02}, 0x0a, 0x05), `record "": field 1: unexpected EOF`},
		{"record as varint", []byte{0x08, 0x01}, "fetch response: field 1: malformed (wire type 0)"},
		{"string as varint", wrongType, `record "": field 2: wire type 0, want 2`},
		{"bad tag", []byte{0x00}, "invalid field number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c fromproto.ChunkReader
			c.Reset(tc.chunk)
			_, ok, err := c.Next()
			assert.False(t, ok)
			assert.ErrorContains(t, err, tc.want) // protowire words its errors with varying spaces
		})
	}
}

// benchRecords are 10k records shaped like the fetch benchmarks': seven
// typed fields each.
func benchRecords() []sdk.Record {
	records := make([]sdk.Record, 10_000)
	for i := range records {
		records[i] = sdk.Record{
			ID: fmt.Sprintf("rec-%05d", i), Source: "gitlab.example.com", Kind: sdk.KindCommit,
			Title: fmt.Sprintf("Commit %d: fix the payment retry", i), Body: "Retry idempotently when the gateway times out.",
			URL: fmt.Sprintf("https://gitlab.example.com/pay/-/commit/%x", i), Author: "ana", Time: at.Add(time.Duration(i) * time.Minute), Tier: i % 4,
			Fields: map[string]any{
				"additions": int64(i), "ratio": float64(i) / 7, "merged": i%2 == 0, "merged_at": at.Add(time.Duration(i) * time.Hour),
				"labels": []string{"payments", fmt.Sprint("l", i%3)}, "project": "pay", "empty": []string{},
			},
		}
	}
	return records
}

// BenchmarkAppendRecords10k is the plugin side of a 10k-record fetch
// without the transport: encoding into a reused chunk buffer.
func BenchmarkAppendRecords10k(b *testing.B) {
	records := benchRecords()
	buf := make([]byte, 0, 1<<20)
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for _, r := range records {
			var err error
			if buf, err = toproto.AppendRecord(buf, r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkReadChunk10k is the host side of a 10k-record fetch without the
// transport: decoding into sdk.Records.
func BenchmarkReadChunk10k(b *testing.B) {
	var chunk []byte
	for _, r := range benchRecords() {
		var err error
		if chunk, err = toproto.AppendRecord(chunk, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		var c fromproto.ChunkReader
		c.Reset(chunk)
		for n := 0; ; n++ {
			_, ok, err := c.Next()
			if err != nil || (!ok && n != 10_000) {
				b.Fatalf("%d records, %v", n, err)
			}
			if !ok {
				break
			}
		}
	}
}
