package fromproto_test

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"

	"github.com/nous-dev/nous/sdk"
	pb "github.com/nous-dev/nous/sdk/internal/proto"
	"github.com/nous-dev/nous/sdk/internal/toproto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// The host encodes an InvokeRequest directly; what the generated code
// reads from those bytes is what toproto.InvokeRequest builds.
func TestAppendInvokeRequestIsTheProtocolEncoding(t *testing.T) {
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
	for name, req := range tests {
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
