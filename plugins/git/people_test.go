package git

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		{"jeff king", matchExact, []person{{name: "Jeff King", commits: 2306}}},                                                                     // one person under two addresses and two spellings
		{"peff", matchExact, []person{{name: "Jeff King", commits: 2306}}},                                                                          // an address joins "peff" to the name on most commits
		{"jeff", matchWords, []person{{name: "Jeff King", commits: 2306}, {name: "Jeff Hostetler", commits: 40}, {name: "Jeff Smith", commits: 3}}}, // not Harry Jeffery
		{"Jeffery", matchWords, []person{{name: "Harry Jeffery", commits: 2}}},
		{"jeffe", matchSubstring, []person{{name: "Harry Jeffery", commits: 2}}}, // no whole word: any part
		{"Martin", matchWords, []person{{name: "Martin Ågren", commits: 7}}},     // not Morey-Chaisemartin
		{"Patrick Steinhardt", matchExact, []person{{name: "Patrick Steinhardt", commits: 901}}},
		{"ps@pks.im", matchExact, []person{{name: "Patrick Steinhardt", commits: 901}}},          // the address names the person, under any name
		{"Johannes Schindelin", matchExact, []person{{name: "Johannes Schindelin", commits: 1}}}, // the list's address joins nobody else
		{"gitgitgadget", matchWords, []person{{name: "Johannes Schindelin", commits: 1}, {name: "Someone Else", commits: 1}}},
		{"nobody", matchSubstring, []person{}},
	} {
		t.Run(tt.value, func(t *testing.T) {
			ids, how := h.authors(tt.value)
			assert.Equal(t, tt.how, how)
			got := h.people(ids, h.counts)
			for i := range got {
				got[i].index = 0 // which person is checked by name
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestAFirstNameIsNotOnePerson: an identity named just "simon" does not
// make "Simon" that one person while Simon Eskildsen and Simon Brisson
// exist, and the filter naming simon alone is their identity, since the
// name matches the others' too (found in sirupsen/logrus).
func TestAFirstNameIsNotOnePerson(t *testing.T) {
	h := &history{identities: []string{
		"Simon Brisson <sbrisson@example.com>",
		"Simon Eskildsen <sirup@sirupsen.com>",
		"simon <simon@crcms.cn>",
		"Simone Rossi <simone@example.com>",
	}, counts: []int{2, 368, 1, 5}}
	for _, id := range h.identities {
		h.lower = append(h.lower, strings.ToLower(id))
	}
	h.group()
	ids, how := h.authors("Simon")
	assert.Equal(t, matchExact, how)
	var names []string
	for _, p := range h.people(ids, h.counts) {
		names = append(names, p.name)
	}
	assert.Equal(t, []string{"Simon Eskildsen", "Simon Brisson", "simon"}, names, "most commits first; not Simone")

	ids, _ = h.authors("simon <simon@crcms.cn>")
	simon := h.people(ids, h.counts)
	assert.Equal(t, "<simon@crcms.cn>", h.filterFor(simon[0]), "\"simon\" alone would match Simon Eskildsen's commits")
	ids, _ = h.authors("Simon Eskildsen")
	assert.Equal(t, "Simon Eskildsen", h.filterFor(h.people(ids, h.counts)[0]))
	ids, _ = h.authors("Simone Rossi")
	assert.Equal(t, "Simone Rossi", h.filterFor(h.people(ids, h.counts)[0]))
}

// TestAFilterNamesEveryIdentity: a person under two names sharing an
// address is filtered by the address, so the commits under both come
// (found in urfave/cli: Naveen Gogineni and dearchap); one under two
// spellings of a name by the name.
func TestAFilterNamesEveryIdentity(t *testing.T) {
	h := &history{identities: []string{
		"Jeff King <peff@github.com>",
		"Naveen Gogineni <dear.chap@gmail.com>",
		"dearchap <dear.chap@gmail.com>",
		"jeff king <peff@peff.net>",
	}, counts: []int{10, 488, 349, 5}}
	for _, id := range h.identities {
		h.lower = append(h.lower, strings.ToLower(id))
	}
	h.group()
	for value, want := range map[string]string{"Naveen": "<dear.chap@gmail.com>", "dearchap": "<dear.chap@gmail.com>", "Jeff King": "Jeff King"} {
		ids, _ := h.authors(value)
		people := h.people(ids, h.counts)
		require.Len(t, people, 1, value)
		assert.Equal(t, want, h.filterFor(people[0]), value)
		assert.Equal(t, value == "Jeff King", h.namesOnly(value, people[0].index), "%s names all of them", value)
	}
}
