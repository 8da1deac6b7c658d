package plugin_test

import (
	"context"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTransportIsMutualTLS(t *testing.T) {
	tests := []struct {
		mode    string
		wantErr string // "" when the plugin must connect
	}{
		{mode: "echo"},
		{mode: "notls", wantErr: "plugin p (builtin:notls): its handshake carried no TLS certificate; nous connects to plugins only over mutually authenticated TLS"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			m, _ := newManager(t, plugin.Options{}, source("p", "builtin:"+tt.mode))
			var rs []sdk.Record
			err := m.Fetch(context.Background(), "p", sdk.FetchRequest{}, collect(&rs))
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Len(t, rs, 1)
		})
	}
}
