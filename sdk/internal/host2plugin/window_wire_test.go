package host2plugin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The connection's flow-control windows are fixed (16 MiB, 4 MiB a
// stream): a call that moves more than a window must still complete, the
// receiver handing back credit as it reads, whichever end sends.

func TestFetchMovesMoreThanTheConnectionWindow(t *testing.T) {
	body := strings.Repeat("x", 256<<10)
	records := make([]sdk.Record, 100) // 25 MiB
	for i := range records {
		records[i] = sdk.Record{ID: fmt.Sprint(i), Kind: sdk.KindDocument, Body: body}
	}
	src := sdktest.Source(t, &fakeSource{fetch: emitAll(records)})
	for range 2 { // the second call runs on the credit the first handed back
		got, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
		require.NoError(t, err)
		require.Len(t, got, len(records))
		assert.Equal(t, "99", got[99].ID)
		assert.Len(t, got[99].Body, len(body))
	}
}

func TestInvokeSendsMoreThanTheStreamWindow(t *testing.T) {
	var got int
	agent := sdktest.Agent(t, &fakeAgent{invoke: func(_ context.Context, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
		got = len(req.Context)
		return sdk.InvokeResponse{Output: json.RawMessage(`{"final_report":"` + strings.Repeat("y", 6<<20) + `"}`)}, nil
	}})
	ctx := make([]sdk.Record, 24) // 6 MiB
	for i := range ctx {
		ctx[i] = sdk.Record{ID: fmt.Sprint(i), Kind: sdk.KindDocument, Body: strings.Repeat("x", 256<<10)}
	}
	for range 3 {
		resp, err := agent.Invoke(context.Background(), sdk.InvokeRequest{Role: sdk.RoleWriter, Context: ctx})
		require.NoError(t, err)
		assert.Equal(t, len(ctx), got, "the whole request reached the agent")
		assert.Greater(t, len(resp.Output), 6<<20, "the whole answer reached the host")
	}
}
