package github

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
	fake := fakes.NewGitHub(testToken)
	fake.Enterprise = true
	srv := httptest.NewServer(fake)
	defer srv.Close()
	src := sdktest.Source(t, New(WithEnv(func(string) string { return "" })))
	ctx := context.Background()

	info, err := src.Describe(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{sdk.KindIssue, sdk.KindPullRequest, sdk.KindCommit, sdk.KindRelease, sdk.KindPipeline}, info.Kinds)

	diags, err := src.Configure(ctx, json.RawMessage(`{"base_url":"`+srv.URL+`","repo":"nope"}`))
	require.NoError(t, err)
	require.True(t, diags.HasErrors())
	assert.Equal(t, "repo", diags[0].Path)

	diags, err = src.Configure(ctx, json.RawMessage(`{"base_url":"`+srv.URL+`","repo":"`+testRepo+`"}`))
	require.NoError(t, err)
	require.False(t, diags.HasErrors())
	require.Len(t, diags, 1, "no token: a warning")
	assert.Equal(t, sdk.SeverityWarning, diags[0].Severity)
	assert.Contains(t, diags[0].Summary, "60 requests an hour")

	diags, err = src.Configure(ctx, json.RawMessage(`{"base_url":"`+srv.URL+`","token":"`+testToken+`","repo":"`+testRepo+`"}`))
	require.NoError(t, err)
	require.Empty(t, diags)

	records, err := sdktest.Collect(ctx, src, sdk.FetchRequest{Kind: "pull_request", Filters: map[string][]string{"statuses": {"merged"}}})
	require.NoError(t, err)
	require.NotEmpty(t, records)
	assert.Equal(t, "merged", records[0].Fields["state"])
	assert.Regexp(t, `^octo-org/octo-repo#\d+$`, records[0].ID)

	_, err = sdktest.Collect(ctx, src, sdk.FetchRequest{Filters: map[string][]string{"projects": {"octo-org/nope"}}})
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrNotFound)
	assert.Contains(t, err.Error(), `"octo-org/nope"`)
}
