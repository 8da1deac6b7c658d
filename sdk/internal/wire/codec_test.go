package wire

import (
	"testing"
	"time"

	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

func sampleChunk(n int) *pb.FetchResponse {
	resp := &pb.FetchResponse{}
	for i := range n {
		fields, _ := FieldsToProto(map[string]any{"n": i, "at": time.Unix(int64(i), 0), "tags": []string{"a", "b"}})
		resp.Records = append(resp.Records, &pb.Record{Id: "r", Title: "title", Time: timestamppb.New(time.Unix(1, 2)), Tier: 3, Fields: fields})
	}
	return resp
}

// The fast codec and gRPC's standard proto codec must read each other's
// bytes: a host and a plugin may use either.
func TestCodecInteroperatesWithTheProtoCodec(t *testing.T) {
	std := encoding.GetCodecV2("proto")
	for _, n := range []int{0, 1, 2000} { // 2000 records exceed the pooling threshold
		want := sampleChunk(n)

		fast, err := Codec{}.Marshal(want)
		require.NoError(t, err)
		var viaStd pb.FetchResponse
		require.NoError(t, std.Unmarshal(fast, &viaStd))
		assert.True(t, proto.Equal(want, &viaStd), "fast → standard, %d records", n)

		slow, err := std.Marshal(want)
		require.NoError(t, err)
		var viaFast pb.FetchResponse
		require.NoError(t, Codec{}.Unmarshal(slow, &viaFast))
		assert.True(t, proto.Equal(want, &viaFast), "standard → fast, %d records", n)
	}
}

func TestCodecFallsBackForOtherMessages(t *testing.T) {
	ts := timestamppb.New(time.Unix(42, 7)) // not a nous.plugin.v1 message
	data, err := Codec{}.Marshal(ts)
	require.NoError(t, err)
	var back timestamppb.Timestamp
	require.NoError(t, Codec{}.Unmarshal(data, &back))
	assert.True(t, proto.Equal(ts, &back))
	assert.Equal(t, "proto", Codec{}.Name())
}

func TestCodecRejectsGarbage(t *testing.T) {
	data, err := Codec{}.Marshal(&pb.StringList{Values: []string{"x"}})
	require.NoError(t, err)
	raw := data.Materialize()
	var rec pb.Record
	err = Codec{}.Unmarshal(sliceOf(raw[:len(raw)-1]), &rec)
	assert.Error(t, err, "a truncated message is an error, not a panic")
}

func sliceOf(b []byte) mem.BufferSlice { return mem.BufferSlice{mem.SliceBuffer(b)} }

// Chunks the sdk encodes itself pass through the codec as they are: sent
// without a copy, received as a copy that later reuse of gRPC's buffer
// cannot change.
func TestCodecPassesEncodedChunksThrough(t *testing.T) {
	pool := mem.DefaultBufferPool()
	buf := pool.Get(64 << 10)
	*buf = append((*buf)[:0], "encoded records"...)
	out, err := Codec{}.Marshal(&Outgoing{Buf: buf, Pool: pool})
	require.NoError(t, err)
	assert.Equal(t, []byte("encoded records"), out.Materialize())
	out.Free()

	received := []byte("chunk")
	var in Incoming
	require.NoError(t, Codec{}.Unmarshal(sliceOf(received), &in))
	received[0] = 'X'
	assert.Equal(t, []byte("chunk"), in.Bytes)
}
