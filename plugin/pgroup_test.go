package plugin_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPluginChildrenDoNotOutliveIt starts a plugin that spawns a sleeping
// child (holding the plugin's stderr), then stops the plugin by shutdown or
// by a crash: the child is gone too.
func TestPluginChildrenDoNotOutliveIt(t *testing.T) {
	dir := pluginDir(t, "spawner")
	tests := []struct {
		name string
		stop func(t *testing.T, m *plugin.Manager)
	}{
		{"shutdown", func(t *testing.T, m *plugin.Manager) { require.NoError(t, m.Close()) }},
		{"crash", func(t *testing.T, m *plugin.Manager) {
			err := m.Fetch(context.Background(), "s", fetchN(1, queryCrash), collect(new([]sdk.Record)))
			require.ErrorContains(t, err, "exited unexpectedly")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newManager(t, plugin.Options{Dirs: []string{dir}}, source("s", "spawner"))
			var rs []sdk.Record
			require.NoError(t, m.Fetch(context.Background(), "s", fetchN(1, ""), collect(&rs)))
			require.Len(t, rs, 1)
			child := int(rs[0].Fields["child"].(int64))
			require.NotZero(t, child, "the plugin started its child")
			t.Cleanup(func() { _ = syscall.Kill(child, syscall.SIGKILL) })
			require.True(t, processAlive(child))

			tt.stop(t, m)
			assert.True(t, waitFor(t, 5*time.Second, func() bool { return !processAlive(child) }),
				"the plugin's child (pid %d) outlived it", child)
		})
	}
}
