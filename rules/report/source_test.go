package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSourceLine(t *testing.T) {
	src := []byte("one\r\ntwo\n\nfour")
	tests := []struct {
		n    int
		want string
		ok   bool
	}{
		{0, "", false}, {1, "one", true}, {2, "two", true}, {3, "", true}, {4, "four", true}, {5, "", false},
	}
	for _, tt := range tests {
		got := SourceLine(src, tt.n)
		assert.Equal(t, tt.ok, got != nil, "line %d", tt.n)
		assert.Equal(t, tt.want, string(got), "line %d", tt.n)
	}
}
