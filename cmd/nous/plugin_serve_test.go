package main

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSoftMemoryLimit: a plugin process gets pluginMemoryLimit unless
// GOMEMLIMIT is set, which the runtime applies itself.
func TestSoftMemoryLimit(t *testing.T) {
	was := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(was) })
	tests := []struct {
		name, env string
		want      int64
	}{
		{"default", "", pluginMemoryLimit},
		{"GOMEMLIMIT set", "1GiB", math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tt.env)
			debug.SetMemoryLimit(math.MaxInt64)
			softMemoryLimit()
			assert.Equal(t, tt.want, debug.SetMemoryLimit(-1))
		})
	}
}
