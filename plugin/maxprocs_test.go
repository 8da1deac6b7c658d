package plugin_test

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMaxProcsReachesThePluginProcess: a plugin served with
// sdk/plugin.Config.MaxProcs runs with that GOMAXPROCS, one served without
// it with Go's default.
func TestMaxProcsReachesThePluginProcess(t *testing.T) {
	if os.Getenv("GOMAXPROCS") != "" {
		t.Skip("GOMAXPROCS is set: it decides for every plugin")
	}
	tests := []struct {
		ref  string
		want int64
	}{
		{"builtin:echo", 1},
		{"builtin:echo-allprocs", int64(runtime.GOMAXPROCS(0))},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			m, _ := newManager(t, plugin.Options{}, source("docs", tt.ref))
			var rs []sdk.Record
			require.NoError(t, m.Fetch(context.Background(), "docs", sdk.FetchRequest{Query: "procs"}, collect(&rs)))
			require.Len(t, rs, 1)
			assert.Equal(t, tt.want, rs[0].Fields["gomaxprocs"])
		})
	}
}
