package git

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPeople(t *testing.T) {
	h := &history{identities: []string{
		"'Patrick Steinhardt' via Git Security <git-security@googlegroups.com>",
		"Harry Jeffery <harry@exec64.co.uk>",
		"Jeff Hostetler <jeffhost@microsoft.com>",
		"Jeff King <peff@github.com>",
		"Jeff King <peff@peff.net>",
		"Jeff Smith <whydoubt@gmail.com>",
		"Johannes Schindelin via GitGitGadget <gitgitgadget@gmail.com>",
		"Martin Ågren <martin.agren@gmail.com>",
		"Nicolas Morey-Chaisemartin <nmoreychaisemartin@suse.com>",
		"Patrick Steinhardt <ps@pks.im>",
		"Someone Else via GitGitGadget <gitgitgadget@gmail.com>",
		"jeff king <peff@peff.net>",
		"peff <peff@github.com>",
	}, counts: []int{1, 2, 40, 300, 2000, 3, 1, 7, 4, 900, 1, 5, 1}}
	for _, id := range h.identities {
		h.lower = append(h.lower, strings.ToLower(id))
	}
	h.group()
	for _, tt := range []struct {
		value string
		how   int
		want  []person
	}{
		{"jeff king", matchExact, []person{{"Jeff King", 2306}}},                                       // one person under two addresses and two spellings
		{"peff", matchExact, []person{{"Jeff King", 2306}}},                                            // an address joins "peff" to the name on most commits
		{"jeff", matchWords, []person{{"Jeff King", 2306}, {"Jeff Hostetler", 40}, {"Jeff Smith", 3}}}, // not Harry Jeffery
		{"Jeffery", matchWords, []person{{"Harry Jeffery", 2}}},
		{"jeffe", matchSubstring, []person{{"Harry Jeffery", 2}}}, // no whole word: any part
		{"Martin", matchWords, []person{{"Martin Ågren", 7}}},     // not Morey-Chaisemartin
		{"Patrick Steinhardt", matchExact, []person{{"Patrick Steinhardt", 901}}},
		{"ps@pks.im", matchExact, []person{{"Patrick Steinhardt", 901}}},          // the address names the person, under any name
		{"Johannes Schindelin", matchExact, []person{{"Johannes Schindelin", 1}}}, // the list's address joins nobody else
		{"gitgitgadget", matchWords, []person{{"Johannes Schindelin", 1}, {"Someone Else", 1}}},
		{"nobody", matchSubstring, []person{}},
	} {
		t.Run(tt.value, func(t *testing.T) {
			ids, how := h.authors(tt.value)
			assert.Equal(t, tt.how, how)
			assert.Equal(t, tt.want, h.people(ids, h.counts))
		})
	}
}
