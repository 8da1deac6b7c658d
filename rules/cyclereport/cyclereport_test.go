package cyclereport

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKeepAndFormat(t *testing.T) {
	tests := []struct {
		name       string
		n, keep    int
		head, tail int
		want       string
	}{
		{name: "self loop", n: 1, keep: MaxNodes, head: 1, want: "0 → 0"},
		{name: "fits exactly", n: 11, keep: 12, head: 11, want: "0 → 1 → 2 → 3 → 4 → 5 → 6 → 7 → 8 → 9 → 10 → 0"},
		{name: "one too long", n: 12, keep: 12, head: 6, tail: 5, want: "0 → 1 → 2 → 3 → 4 → 5 → … 1 more → 7 → 8 → 9 → 10 → 11 → 0"},
		{name: "12k ring", n: 12_000, keep: 12, head: 6, tail: 5, want: "0 → 1 → 2 → 3 → 4 → 5 → … 11989 more → 11995 → 11996 → 11997 → 11998 → 11999 → 0"},
		{name: "limit below 3 still shows the closing edge", n: 5, keep: 1, head: 1, tail: 1, want: "0 → … 3 more → 4 → 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, tail := Keep(tt.n, tt.keep)
			assert.Equal(t, []int{tt.head, tt.tail}, []int{head, tail})
			nodes := make([]int, 0, head+tail+1)
			for i := range head {
				nodes = append(nodes, i)
			}
			for i := tt.n - tail; i < tt.n; i++ {
				nodes = append(nodes, i)
			}
			nodes = append(nodes, 0)
			cut := head
			if tail == 0 {
				cut = len(nodes)
			}
			got := Format(len(nodes), cut, tt.n-head-tail, func(i int) string { return strconv.Itoa(nodes[i]) })
			assert.Equal(t, tt.want, got)
		})
	}
}
