package report

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWindowCutsLongLinesAroundTheRange(t *testing.T) {
	long := strings.Repeat("a", 1000) + "TARGET" + strings.Repeat("b", 1000)
	tests := []struct {
		name       string
		line       string
		start, end int
		want       string // the cut line's text under the range
		cutLeft    bool
		cutRight   bool
	}{
		{name: "short line as is", line: "depends_on = [\"a\"]", start: 15, end: 18, want: `"a"`},
		{name: "range in the middle", line: long, start: 1001, end: 1007, want: "TARGET", cutLeft: true, cutRight: true},
		{name: "range at the start", line: long, start: 1, end: 4, want: "aaa", cutRight: true},
		{name: "range at the end", line: long, start: 2004, end: 2007, want: "bbb", cutLeft: true},
		{name: "range running past the line", line: long, start: 1001, end: 5000, cutLeft: true, cutRight: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, start, end := window([]rune(tt.line), tt.start, tt.end)
			assert.LessOrEqual(t, len(text), snippetWidth+2)
			assert.GreaterOrEqual(t, start, 1)
			assert.LessOrEqual(t, end, len(text)+1)
			if tt.want != "" {
				assert.Equal(t, tt.want, string(text[start-1:end-1]))
			}
			assert.Equal(t, tt.cutLeft, text[0] == '…')
			assert.Equal(t, tt.cutRight, text[len(text)-1] == '…')
		})
	}
}
