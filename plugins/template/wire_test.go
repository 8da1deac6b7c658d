package template

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// TestOverThePluginProtocol runs the roles through the real plugin wire and
// checks the host sees exactly what the in-process agent produces.
func TestOverThePluginProtocol(t *testing.T) {
	ctx := context.Background()
	remote := sdktest.Agent(t, New())
	local := New()

	info, err := remote.Describe(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"analyst", "clarification", "critic", "validator", "writer"}, info.Roles)

	diags, err := remote.Configure(ctx, json.RawMessage(`{"max_items":0,"colour":1}`))
	require.NoError(t, err)
	assert.True(t, diags.HasErrors())
	assert.Len(t, diags, 2)

	records := fixtureRecords()
	var draft sdk.AnalystOutput
	remoteOut := invoke(t, remote, sdk.RoleAnalyst, sdk.AnalystInput{Query: "what changed?", Mode: "discovery"}, records, &draft)
	localOut := invoke(t, local, sdk.RoleAnalyst, sdk.AnalystInput{Query: "what changed?", Mode: "discovery"}, records, &draft)
	assert.JSONEq(t, string(localOut), string(remoteOut))

	var rv sdk.CriticOutput
	remoteOut = invoke(t, remote, sdk.RoleCritic, sdk.CriticInput{Draft: draft.Draft, Mode: "discovery"}, records, &rv)
	localOut = invoke(t, local, sdk.RoleCritic, sdk.CriticInput{Draft: draft.Draft, Mode: "discovery"}, records, &rv)
	assert.JSONEq(t, string(localOut), string(remoteOut))
	assert.Equal(t, "WARN", rv.Status)

	var w sdk.WriterOutput
	remoteOut = invoke(t, remote, sdk.RoleWriter, sdk.WriterInput{Draft: draft.Draft, Review: &rv, Mode: "discovery"}, records, &w)
	localOut = invoke(t, local, sdk.RoleWriter, sdk.WriterInput{Draft: draft.Draft, Review: &rv, Mode: "discovery"}, records, &w)
	assert.JSONEq(t, string(localOut), string(remoteOut))

	_, err = remote.Invoke(ctx, sdk.InvokeRequest{Role: "poet", Input: json.RawMessage(`{}`)})
	assert.ErrorIs(t, err, sdk.ErrBadRequest, "the error kind crosses the wire")
	assert.Contains(t, err.Error(), `unknown role "poet"`)
}
