package plugins_test

import (
	"testing"

	"github.com/nous-dev/nous/plugins"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuiltinMaxProcs: every built-in but git runs on one thread.
func TestBuiltinMaxProcs(t *testing.T) {
	for _, name := range plugins.Names() {
		cfg, ok := plugins.Lookup(name)
		require.True(t, ok, name)
		want := 1
		if name == "git" {
			want = 0
		}
		assert.Equal(t, want, cfg.MaxProcs, name)
	}
}
