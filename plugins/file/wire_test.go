package file

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOverThePluginProtocol runs the source behind the real plugin
// protocol: records, typed fields and file:line errors must cross the wire.
func TestOverThePluginProtocol(t *testing.T) {
	ctx := context.Background()
	remote := sdktest.Source(t, New())
	diags, err := remote.Configure(ctx, json.RawMessage(`{"path": "`+examplePath+`"}`))
	require.NoError(t, err)
	require.False(t, diags.HasErrors())

	req := sdk.FetchRequest{Filters: map[string][]string{"projects": {"SHOP"}, "labels": {"search"}}}
	want, err := sdktest.Collect(ctx, configured(t, map[string]any{"path": examplePath}), req)
	require.NoError(t, err)
	got, err := sdktest.Collect(ctx, remote, req)
	require.NoError(t, err)
	require.NotEmpty(t, got)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i].ID, got[i].ID)
		assert.Equal(t, want[i].Fields["labels"], got[i].Fields["labels"])
		assert.True(t, want[i].Time.Equal(got[i].Time))
	}

	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte(`{"id":"1"}`+"\n"+`{oops}`+"\n"), 0o644))
	diags, err = remote.Configure(ctx, json.RawMessage(`{"path": "`+bad+`"}`))
	require.NoError(t, err)
	require.False(t, diags.HasErrors())
	_, err = sdktest.Collect(ctx, remote, sdk.FetchRequest{})
	assert.ErrorIs(t, err, sdk.ErrBadConfig)
	assert.Contains(t, err.Error(), bad+":2: want valid JSON")
}
