package text

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOneLine(t *testing.T) {
	assert.Equal(t, "a b c", OneLine(" a\n\tb  c\r\n"))
	assert.Equal(t, "", OneLine(" \n "))
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"one two three", 5, "one…"}, // the space before the cut goes
		{"提交訊息很長", 4, "提交訊…"},        // runes, not bytes
		{"abc", 0, ""},
	}
	for _, tt := range tests {
		got := Clip(tt.in, tt.n)
		assert.Equal(t, tt.want, got, tt.in)
		assert.LessOrEqual(t, len([]rune(got)), max(tt.n, 0))
	}
}
