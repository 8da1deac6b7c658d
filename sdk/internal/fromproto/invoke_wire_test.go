package fromproto_test

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/fromproto"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/toproto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// The host encodes an InvokeRequest directly; what the generated code
// reads from those bytes is what toproto.InvokeRequest builds.
// invokeRequests are requests whose encoding exercises every field of an
// InvokeRequest and every branch of a record's.
func invokeRequests() map[string]sdk.InvokeRequest {
	records := wireRecords()
	names := make([]string, 0, len(records))
	for name := range records {
		names = append(names, name)
	}
	sort.Strings(names)
	var context []sdk.Record
	for _, name := range names {
		context = append(context, records[name])
	}
	tests := map[string]sdk.InvokeRequest{
		"empty":      {},
		"role only":  {Role: sdk.RoleWriter},
		"no context": {Role: sdk.RoleAnalyst, Instructions: "Answer.", Input: json.RawMessage(`{"query":"q"}`), Schema: json.RawMessage(`{"type":"object"}`)},
		"every kind of record": {Role: sdk.RoleCritic, Instructions: "Review the draft.", Input: json.RawMessage(`{"draft":"d"}`),
			Context: context, Schema: json.RawMessage(`{}`)},
		"invalid utf8": {Role: "writer\xff", Instructions: "caf\xe9", Input: json.RawMessage("{\"a\":\"\xff\"}")},
	}
	return tests
}

func TestAppendInvokeRequestIsTheProtocolEncoding(t *testing.T) {
	for name, req := range invokeRequests() {
		t.Run(name, func(t *testing.T) {
			prefix := []byte("kept")
			b, err := toproto.AppendInvokeRequest(slices.Clone(prefix), req)
			require.NoError(t, err)
			require.Equal(t, prefix, b[:len(prefix)], "appends")
			var got pb.InvokeRequest
			require.NoError(t, proto.Unmarshal(b[len(prefix):], &got), "the reference decoder reads it (UTF-8 checked)")
			want, err := toproto.InvokeRequest(req)
			require.NoError(t, err)
			for _, r := range want.Context {
				sortedFields(r)
			}
			for _, r := range got.Context {
				sortedFields(r)
			}
			assert.True(t, proto.Equal(want, &got), "got %v\nwant %v", &got, want)
		})
	}
}

func TestAppendInvokeRequestFailsAsInvokeRequestDoes(t *testing.T) {
	req := sdk.InvokeRequest{Role: sdk.RoleWriter, Context: []sdk.Record{{ID: "ok"}, {ID: "bad", Fields: map[string]any{"owner": map[string]string{}}}}}
	prefix := []byte("earlier")
	b, err := toproto.AppendInvokeRequest(slices.Clone(prefix), req)
	require.Error(t, err)
	_, want := toproto.InvokeRequest(req)
	require.Error(t, want)
	assert.Equal(t, want.Error(), err.Error())
	assert.Contains(t, err.Error(), "context[1]")
	assert.Equal(t, prefix, b, "the buffer comes back as it was")
}

// The plugin decodes a request's bytes directly; it reads what the
// generated code and InvokeRequest read, from the bytes of either encoder.
func TestReadInvokeRequestReadsWhatInvokeRequestReads(t *testing.T) {
	for name, req := range invokeRequests() {
		t.Run(name, func(t *testing.T) {
			p, err := toproto.InvokeRequest(req)
			require.NoError(t, err)
			generated, err := proto.Marshal(p)
			require.NoError(t, err)
			direct, err := toproto.AppendInvokeRequest(nil, req)
			require.NoError(t, err)
			for encoder, b := range map[string][]byte{"generated": generated, "direct": direct} {
				var decoded pb.InvokeRequest
				require.NoError(t, proto.Unmarshal(b, &decoded))
				want, err := fromproto.InvokeRequest(&decoded)
				require.NoError(t, err)
				got, err := fromproto.ReadInvokeRequest(b)
				require.NoError(t, err, encoder)
				assert.Equal(t, want, got, encoder)
			}
		})
	}
}

// As the generated decoder does, the last of a repeated scalar wins and
// fields this sdk does not know are skipped.
func TestReadInvokeRequestFollowsProtobufRules(t *testing.T) {
	var b []byte
	b = protowire.AppendString(protowire.AppendTag(b, 1, protowire.BytesType), "analyst")
	b = protowire.AppendVarint(protowire.AppendTag(b, 9, protowire.VarintType), 7) // a newer host's field
	b = protowire.AppendString(protowire.AppendTag(b, 1, protowire.BytesType), "writer")
	b, err := toproto.AppendInvokeRequest(b, sdk.InvokeRequest{Context: []sdk.Record{{ID: "a"}}, Schema: json.RawMessage(`{}`)})
	require.NoError(t, err)
	got, err := fromproto.ReadInvokeRequest(b)
	require.NoError(t, err)
	assert.Equal(t, sdk.InvokeRequest{Role: "writer", Context: []sdk.Record{{ID: "a"}}, Schema: json.RawMessage(`{}`)}, got)
}

func TestReadInvokeRequestRejectsMalformedBytes(t *testing.T) {
	badField, err := proto.Marshal(&pb.InvokeRequest{Context: []*pb.Record{{Id: "ok"}, {Id: "c", Fields: []*pb.Field{{Name: "z"}}}}})
	require.NoError(t, err)
	var decoded pb.InvokeRequest
	require.NoError(t, proto.Unmarshal(badField, &decoded))
	_, want := fromproto.InvokeRequest(&decoded)
	require.Error(t, want)
	_, err = fromproto.ReadInvokeRequest(badField)
	require.Error(t, err)
	assert.Equal(t, want.Error(), err.Error(), "a bad record is named as InvokeRequest names it")

	for name, b := range map[string][]byte{
		"truncated tag":    {0x80},
		"truncated length": {0x0a, 0x05, 'a'},
		"role as varint":   protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 1),
		"bad record":       {0x22, 0x02, 0x0a, 0x05},
	} {
		_, err := fromproto.ReadInvokeRequest(b)
		assert.Error(t, err, name)
	}
}
