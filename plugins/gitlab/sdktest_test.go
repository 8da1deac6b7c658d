package gitlab

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// TestOverThePluginProtocol runs the source as nous runs it: behind the
// go-plugin gRPC server, so records, diagnostics and error kinds are
// checked after crossing the wire.
func TestOverThePluginProtocol(t *testing.T) {
	fake := fakes.NewGitLab(testToken)
	srv := httptest.NewServer(fake)
	defer srv.Close()
	src := sdktest.Source(t, New(WithEnv(func(string) string { return "" })))
	ctx := context.Background()

	diags, err := src.Configure(ctx, json.RawMessage(`{"base_url":"`+srv.URL+`"}`))
	require.NoError(t, err)
	require.True(t, diags.HasErrors(), "no token: an error diagnostic")
	assert.Equal(t, "token", diags[0].Path)

	diags, err = src.Configure(ctx, json.RawMessage(`{"base_url":"`+srv.URL+`","token":"`+testToken+`"}`))
	require.NoError(t, err)
	require.False(t, diags.HasErrors())

	records, err := sdktest.Collect(ctx, src, sdk.FetchRequest{Kind: "merge_request", Filters: project("group/sub/app")})
	require.NoError(t, err)
	require.Len(t, records, len(fake.Project.MergeRequests))
	assert.Equal(t, "group/sub/app!60", records[0].ID)
	assert.Equal(t, int64(60), records[0].Fields["iid"])

	releases, err := sdktest.Collect(ctx, src, sdk.FetchRequest{Kind: "release", Filters: project("group/sub/app"), Limit: 2})
	require.NoError(t, err)
	require.Len(t, releases, 2)
	assert.Equal(t, sdk.KindRelease, releases[0].Kind)
	assert.Equal(t, "group/sub/app@v2.129.0", releases[0].ID)
	assert.Equal(t, true, releases[0].Fields["upcoming_release"])
	assert.Equal(t, fakes.GitLabUpcomingRelease, releases[0].Time)

	_, err = sdktest.Collect(ctx, src, sdk.FetchRequest{Filters: project("nope/nope")})
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrNotFound)
	assert.Contains(t, err.Error(), `"nope/nope"`)
}
