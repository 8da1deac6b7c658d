package main

import (
	"testing"

	"github.com/nous-dev/nous/plugins"
	"github.com/stretchr/testify/assert"
)

// TestBuiltinMaxProcs: every built-in but git runs on one thread; a name
// that is no built-in keeps Go's default.
func TestBuiltinMaxProcs(t *testing.T) {
	for _, name := range plugins.Names() {
		want := 1
		if name == "git" {
			want = 0
		}
		assert.Equal(t, want, builtinMaxProcs(name), name)
	}
	assert.Zero(t, builtinMaxProcs("nonesuch"))
}
