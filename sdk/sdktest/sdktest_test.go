package sdktest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type twoRecords struct{}

func (twoRecords) Describe(context.Context) (sdk.SourceInfo, error) {
	return sdk.SourceInfo{Name: "two"}, nil
}

func (twoRecords) Configure(context.Context, json.RawMessage) (sdk.Diagnostics, error) {
	return nil, nil
}

func (twoRecords) Fetch(_ context.Context, _ sdk.FetchRequest, emit func(sdk.Record) error) error {
	if err := emit(sdk.Record{ID: "a"}); err != nil {
		return err
	}
	if err := emit(sdk.Record{ID: "b"}); err != nil {
		return err
	}
	return sdk.Errorf(sdk.KindRateLimited, "slow down")
}

type echoAgent struct{}

func (echoAgent) Describe(context.Context) (sdk.AgentInfo, error) {
	return sdk.AgentInfo{Name: "echo", Roles: []string{sdk.RoleWriter}}, nil
}

func (echoAgent) Configure(context.Context, json.RawMessage) (sdk.Diagnostics, error) {
	return nil, nil
}

func (echoAgent) Invoke(_ context.Context, req sdk.InvokeRequest) (sdk.InvokeResponse, error) {
	return sdk.InvokeResponse{Output: req.Input}, nil
}

func TestCollectKeepsRecordsAndTheError(t *testing.T) {
	records, err := sdktest.Collect(context.Background(), sdktest.Source(t, twoRecords{}), sdk.FetchRequest{})
	require.Len(t, records, 2)
	assert.Equal(t, "b", records[1].ID)
	assert.ErrorIs(t, err, sdk.ErrRateLimited)
}

func TestAgentRoundTrip(t *testing.T) {
	resp, err := sdktest.Agent(t, echoAgent{}).Invoke(context.Background(), sdk.InvokeRequest{Input: json.RawMessage(`{"draft":"x"}`)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"draft":"x"}`, string(resp.Output))
}

func TestThePluginStopsWithItsTest(t *testing.T) {
	var src sdk.Source
	t.Run("uses the plugin", func(t *testing.T) {
		src = sdktest.Source(t, twoRecords{})
		_, err := src.Describe(context.Background())
		require.NoError(t, err)
	})
	_, err := src.Describe(context.Background())
	require.Error(t, err, "the connection is closed once the test that opened it ends")
	assert.Equal(t, sdk.KindUnavailable, sdk.KindOf(err), "%v", err)
}

// Shutting a plugin down while a fetch was just served must be clean:
// under -race this catches a cleanup that stops go-plugin's server from
// two goroutines at once, which once raced inside go-plugin.
func TestManyPluginsStartAndStopCleanly(t *testing.T) {
	for i := range 20 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			records, err := sdktest.Collect(context.Background(), sdktest.Source(t, twoRecords{}), sdk.FetchRequest{})
			assert.Len(t, records, 2)
			assert.ErrorIs(t, err, sdk.ErrRateLimited)
		})
	}
}
