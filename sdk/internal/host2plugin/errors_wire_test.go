package host2plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var allKinds = []struct {
	kind     sdk.ErrorKind
	sentinel error
}{
	{sdk.KindUnknown, nil},
	{sdk.KindBadConfig, sdk.ErrBadConfig},
	{sdk.KindNotFound, sdk.ErrNotFound},
	{sdk.KindRateLimited, sdk.ErrRateLimited},
	{sdk.KindUnavailable, sdk.ErrUnavailable},
	{sdk.KindDeadline, sdk.ErrDeadline},
	{sdk.KindBadRequest, sdk.ErrBadRequest},
	{sdk.KindUnauthorized, sdk.ErrUnauthorized},
}

func TestErrorsOfEveryKindSurviveTheWire(t *testing.T) {
	for _, tc := range allKinds {
		t.Run(tc.kind.String(), func(t *testing.T) {
			message := "project pay/api: " + tc.kind.String() + " (ünïcødé)"
			fail := func() error { return sdk.Errorf(tc.kind, "%s", message) }
			src := sdktest.Source(t, &fakeSource{
				describe:  func(context.Context) (sdk.SourceInfo, error) { return sdk.SourceInfo{}, fail() },
				configure: func(context.Context, json.RawMessage) (sdk.Diagnostics, error) { return nil, fail() },
				fetch: func(context.Context, sdk.FetchRequest, func(sdk.Record) error) error {
					return fail()
				},
			})
			agent := sdktest.Agent(t, &fakeAgent{invoke: func(context.Context, sdk.InvokeRequest) (sdk.InvokeResponse, error) {
				return sdk.InvokeResponse{}, fail()
			}})
			ctx := context.Background()
			_, describeErr := src.Describe(ctx)
			_, configureErr := src.Configure(ctx, nil)
			fetchErr := src.Fetch(ctx, sdk.FetchRequest{}, func(sdk.Record) error { return nil })
			_, invokeErr := agent.Invoke(ctx, sdk.InvokeRequest{Role: sdk.RoleWriter})

			for call, err := range map[string]error{"describe": describeErr, "configure": configureErr, "fetch": fetchErr, "invoke": invokeErr} {
				require.Error(t, err, call)
				assert.Equal(t, tc.kind, sdk.KindOf(err), call)
				assert.EqualError(t, err, message, call)
				if tc.sentinel != nil {
					assert.ErrorIs(t, err, tc.sentinel, call)
				}
				assert.ErrorIs(t, err, &sdk.Error{Kind: tc.kind, Message: message}, call)
			}
		})
	}
}

func TestPlainErrorsArriveAsUnknownWithTheirText(t *testing.T) {
	src := sdktest.Source(t, &fakeSource{fetch: func(context.Context, sdk.FetchRequest, func(sdk.Record) error) error {
		return errors.New("open /data/x.jsonl: permission denied")
	}})
	err := src.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { return nil })
	require.Error(t, err)
	assert.Equal(t, sdk.KindUnknown, sdk.KindOf(err))
	assert.EqualError(t, err, "open /data/x.jsonl: permission denied")
}

func TestDeadlinePropagatesAndMapsToKindDeadline(t *testing.T) {
	pluginDeadline := make(chan time.Time, 1)
	src := sdktest.Source(t, &fakeSource{fetch: func(ctx context.Context, _ sdk.FetchRequest, _ func(sdk.Record) error) error {
		d, _ := ctx.Deadline()
		pluginDeadline <- d
		<-ctx.Done() // a hung upstream that honours its context
		return ctx.Err()
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	hostDeadline, _ := ctx.Deadline()

	err := src.Fetch(ctx, sdk.FetchRequest{}, func(sdk.Record) error { return nil })
	require.Error(t, err)
	assert.Equal(t, sdk.KindDeadline, sdk.KindOf(err))
	assert.ErrorIs(t, err, sdk.ErrDeadline)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	d := <-pluginDeadline
	require.False(t, d.IsZero(), "the plugin's context carries a deadline")
	assert.WithinDuration(t, hostDeadline, d, 100*time.Millisecond, "and it is the host's")
}

func TestPluginSideContextErrorsAreKindDeadline(t *testing.T) {
	agent := sdktest.Agent(t, &fakeAgent{invoke: func(context.Context, sdk.InvokeRequest) (sdk.InvokeResponse, error) {
		// e.g. the plugin's own HTTP call to an LLM timed out
		return sdk.InvokeResponse{}, context.DeadlineExceeded
	}})
	_, err := agent.Invoke(context.Background(), sdk.InvokeRequest{})
	require.Error(t, err)
	assert.Equal(t, sdk.KindDeadline, sdk.KindOf(err))
}

func TestHostCancellationIsKindDeadline(t *testing.T) {
	started := make(chan struct{})
	agent := sdktest.Agent(t, &fakeAgent{invoke: func(ctx context.Context, _ sdk.InvokeRequest) (sdk.InvokeResponse, error) {
		close(started)
		<-ctx.Done()
		return sdk.InvokeResponse{}, ctx.Err()
	}})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()

	_, err := agent.Invoke(ctx, sdk.InvokeRequest{})
	require.Error(t, err)
	assert.Equal(t, sdk.KindDeadline, sdk.KindOf(err))
	assert.ErrorIs(t, err, context.Canceled)
}
