package git

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOverThePluginProtocol runs the source behind the real plugin
// protocol: records, typed fields and error kinds must cross the wire.
func TestOverThePluginProtocol(t *testing.T) {
	dir := shopRepo(t)
	local := configured(t, pathConfig(dir))
	remote := sdktest.Source(t, New())
	ctx := context.Background()

	info, err := remote.Describe(ctx)
	require.NoError(t, err)
	assert.Equal(t, "git", info.Name)

	diags, err := remote.Configure(ctx, json.RawMessage(pathConfig(dir)))
	require.NoError(t, err)
	require.False(t, diags.HasErrors())

	req := sdk.FetchRequest{Since: day(1, 5), Filters: map[string][]string{"path": {"api"}}}
	want, err := sdktest.Collect(ctx, local, req)
	require.NoError(t, err)
	got, err := sdktest.Collect(ctx, remote, req)
	require.NoError(t, err)
	require.Len(t, got, 2)
	for i := range want {
		assert.Equal(t, want[i].ID, got[i].ID)
		assert.Equal(t, want[i].Title, got[i].Title)
		assert.True(t, want[i].Time.Equal(got[i].Time))
		assert.Equal(t, want[i].Fields["additions"], got[i].Fields["additions"])
		assert.Equal(t, want[i].Fields["paths"], got[i].Fields["paths"])
	}

	_, err = sdktest.Collect(ctx, remote, sdk.FetchRequest{Filters: map[string][]string{"ref": {"nope"}}})
	assert.ErrorIs(t, err, sdk.ErrNotFound)
	assert.Contains(t, err.Error(), `unknown ref "nope"`)
}
