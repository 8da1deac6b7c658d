package host2plugin_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigDirCrossesTheWire checks that the rules file's directory the
// host puts on Configure's context reaches the plugin's Configure, and
// that a host that sets none gives the plugin "".
func TestConfigDirCrossesTheWire(t *testing.T) {
	tests := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"set", sdk.WithConfigDir(context.Background(), "/srv/rules"), "/srv/rules"},
		{"unset", context.Background(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := "not called"
			src := sdktest.Source(t, &fakeSource{configure: func(ctx context.Context, _ json.RawMessage) (sdk.Diagnostics, error) {
				got = sdk.ConfigDir(ctx)
				return nil, nil
			}})
			_, err := src.Configure(tt.ctx, json.RawMessage(`{}`))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
