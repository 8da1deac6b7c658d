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

// oldSummary and oldClip are summary and clip as they were, converting
// the whole text: the reference the shortcuts must spell alike.
func oldSummary(s string, n int) string {
	if len(s) <= n && singleSpaced(s) {
		return s
	}
	s = strings.Join(strings.Fields(s), " ")
	if rs := []rune(s); len(rs) > n {
		return string(rs[:n-1]) + "…"
	}
	return s
}

func oldClip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func FuzzSummaryClip(f *testing.F) {
	for _, s := range []string{"", "a  b\nc\td", " a b ", "a\u00a0b", "abcdef", "äöüß", "bad \xff\xfe byte", "\u0085x\u2028y", strings.Repeat("word ", 100)} {
		for _, n := range []int{1, 2, 4, 10, 200} {
			f.Add(s, n)
		}
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 1 || n > 1000 {
			return
		}
		assert.Equal(t, oldSummary(s, n), summary(s, n))
		assert.Equal(t, oldClip(s, n), clip(s, n))
	})
}
