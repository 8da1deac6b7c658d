package plugin

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMaxProcs: a positive MaxProcs sets GOMAXPROCS unless the GOMAXPROCS
// variable chose it; 0 leaves Go's default.
func TestMaxProcs(t *testing.T) {
	was := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(was) })
	const before = 3
	tests := []struct {
		name string
		n    int
		env  string
		want int
	}{
		{"one", 1, "", 1},
		{"zero keeps the default", 0, "", before},
		{"GOMAXPROCS set", 1, "4", before},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runtime.GOMAXPROCS(before)
			maxProcs(tt.n, func(k string) string {
				if k == "GOMAXPROCS" {
					return tt.env
				}
				return ""
			})
			assert.Equal(t, tt.want, runtime.GOMAXPROCS(0))
		})
	}
}
