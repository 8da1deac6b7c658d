package runner

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSummary(t *testing.T) {
	tests := []struct {
		name, in string
		n        int
		want     string
	}{
		{name: "short single-spaced text is kept", in: "passed 3 record(s) through", n: 200, want: "passed 3 record(s) through"},
		{name: "runs of spaces and lines become one space", in: "a  b\nc\td", n: 200, want: "a b c d"},
		{name: "edge spaces go", in: " a b ", n: 200, want: "a b"},
		{name: "unicode spaces go", in: "a\u00a0b", n: 200, want: "a b"},
		{name: "long text is cut to n runes", in: "abcdef", n: 4, want: "abc…"},
		{name: "runes, not bytes, are counted", in: "äöüß", n: 4, want: "äöüß"},
		{name: "empty", in: "", n: 10, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := summary(tt.in, tt.n)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, strings.Join(strings.Fields(got), " "), got, "one line, single-spaced")
		})
	}
}
