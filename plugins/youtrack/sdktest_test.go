package youtrack

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/plugins/fakes"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// TestOverThePluginProtocol runs the source behind the go-plugin gRPC
// server, as nous does: typed fields, diagnostics and error kinds must
// survive the wire.
func TestOverThePluginProtocol(t *testing.T) {
	fake := fakes.NewYouTrack(testToken, "")
	srv := httptest.NewServer(fake)
	defer srv.Close()
	src := sdktest.Source(t, New(WithEnv(func(string) string { return "" })))
	ctx := context.Background()

	diags, err := src.Configure(ctx, json.RawMessage(`{"token":"`+testToken+`"}`))
	require.NoError(t, err)
	require.True(t, diags.HasErrors())
	assert.Equal(t, "base_url", diags[0].Path)

	diags, err = src.Configure(ctx, json.RawMessage(`{"base_url":"`+srv.URL+`","token":"`+testToken+`","projects":["DEF"]}`))
	require.NoError(t, err)
	require.False(t, diags.HasErrors())

	records, err := sdktest.Collect(ctx, src, sdk.FetchRequest{Kind: "issue"})
	require.NoError(t, err)
	require.Len(t, records, len(projectIssues(fake, "DEF")))
	r := records[0]
	assert.Equal(t, "DEF-1", r.ID)
	assert.IsType(t, int64(0), r.Fields["Estimation"])
	assert.IsType(t, []string{}, r.Fields["Watchers"])
	assert.IsType(t, time.Time{}, r.Fields["created"])
	assert.IsType(t, true, r.Fields["is_resolved"])

	fake.Token = "perm:rotated"
	_, err = sdktest.Collect(ctx, src, sdk.FetchRequest{})
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrUnauthorized)
	assert.NotContains(t, err.Error(), testToken)
}
