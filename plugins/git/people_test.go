package git

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPeople(t *testing.T) {
	h := &history{identities: []string{
		"Jeff Hostetler <jeffhost@microsoft.com>",
		"Jeff King <peff@github.com>",
		"Jeff King <peff@peff.net>",
		"Jeff Smith <whydoubt@gmail.com>",
		"jeff king <peff@peff.net>",
		"peff <peff@github.com>",
	}, counts: []int{40, 300, 2000, 3, 5, 1}}
	for _, id := range h.identities {
		h.lower = append(h.lower, strings.ToLower(id))
	}
	for _, tt := range []struct {
		value string
		want  []person
	}{
		{"jeff king", []person{{"Jeff King", 2305}}}, // one person under two addresses and two spellings
		{"peff", []person{{"Jeff King", 2306}}},      // an address joins "peff" to the name on most commits
		{"jeff", []person{{"Jeff King", 2305}, {"Jeff Hostetler", 40}, {"Jeff Smith", 3}}},
		{"nobody", []person{}},
	} {
		t.Run(tt.value, func(t *testing.T) {
			assert.Equal(t, tt.want, h.people(h.authors(tt.value)))
		})
	}
}
