package git

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// person is one author as a question means one: the identities that share
// an e-mail address, or whose names are the same but for case and a
// mailing list's rewrite ("X via GitGitGadget").
type person struct {
	name    string // the plain name on most of their commits
	commits int    // the commits counted (in the asked period, when there is one)
	index   int    // in history.members
}

// viaRewrite is the name a mailing list gives mail it re-sends under its
// own address for DMARC: "'X' via Git Security", "X via GitGitGadget".
var viaRewrite = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^'?(.+?)'?\s+via\s+\S.*$`) })

// plainName is the name without a mailing list's rewrite.
func plainName(name string) string {
	if m := viaRewrite().FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return name
}

// group joins the identities into persons: personOf and members. A
// rewritten identity's address is the list's, shared by everyone it
// re-sent: it joins by name only.
func (h *history) group() {
	root := make([]int, len(h.identities)) // identity → the identity standing for its person
	find := func(i int) int {
		for root[i] != i {
			root[i] = root[root[i]]
			i = root[i]
		}
		return i
	}
	byKey := map[string]int{}
	for i := range h.identities {
		root[i] = i
		name, email := splitIdentity(h.lower[i])
		keys := []string{"n:" + plainName(name)}
		if email != "" && !viaRewrite().MatchString(name) {
			keys = append(keys, "e:"+email)
		}
		for _, key := range keys {
			if j, ok := byKey[key]; ok {
				root[find(i)] = find(j)
			} else {
				byKey[key] = i
			}
		}
	}
	h.personOf, h.members = make([]int, len(h.identities)), nil
	index := map[int]int{} // root → person
	for i := range h.identities {
		r := find(i)
		p, ok := index[r]
		if !ok {
			p = len(h.members)
			index[r] = p
			h.members = append(h.members, nil)
		}
		h.personOf[i], h.members[p] = p, append(h.members[p], i)
	}
}

// people is the persons of the identities at ids, each with the commits
// of all their identities in counts, most first. A person's name is the
// plain name of their identity with most commits overall.
func (h *history) people(ids, counts []int) []person {
	seen := map[int]bool{}
	out := []person{}
	for _, i := range ids {
		p := h.personOf[i]
		if seen[p] {
			continue
		}
		seen[p] = true
		one := person{index: p}
		best := -1
		for _, m := range h.members[p] {
			one.commits += counts[m]
			if h.counts[m] > best {
				best = h.counts[m]
				name, _ := splitIdentity(h.identities[m])
				one.name = plainName(name)
			}
		}
		out = append(out, one)
	}
	slices.SortStableFunc(out, func(a, b person) int {
		return cmp.Or(cmp.Compare(b.commits, a.commits), strings.Compare(a.name, b.name))
	})
	return out
}

// How an author value matched identities, from the most exact.
const (
	matchExact     = iota // an e-mail address or a full name, in any case
	matchWords            // whole words of the name or address
	matchSubstring        // any part, as `git log -i --author` matches
)

// authors returns the identities value names and how it named them: an
// e-mail address or a full name (any case) exactly; else whole words
// ("Jeff" is Jeff King, not Harry Jeffery); else any part of "Name
// <email>", case-insensitively. A one-word name is a first name too:
// "Simon" is the identity named just simon and Simon Eskildsen.
func (h *history) authors(value string) ([]int, int) {
	v := strings.ToLower(strings.TrimSpace(value))
	var exact, words, sub []int
	want := tokens(v)
	m := h.matching()
	for i, id := range h.lower {
		switch {
		case id == v || m.plain[i] == v || (strings.Contains(v, "@") && m.email[i] == strings.Trim(v, "<>")):
			exact = append(exact, i)
		case containsRun(m.tokens[i], want):
			words = append(words, i)
		case strings.Contains(id, v):
			sub = append(sub, i)
		}
	}
	switch {
	case len(exact) > 0 && len(words) > 0 && len(want) == 1 && !strings.Contains(v, "@"):
		return append(exact, words...), matchExact
	case len(exact) > 0:
		return exact, matchExact
	case len(words) > 0:
		return words, matchWords
	}
	return sub, matchSubstring
}

// identityParts is what authors matches of each identity in lower case:
// its plain name, its address, and the tokens of both. A warm plugin
// keeps them with the history, read once for every question.
type identityParts struct {
	plain, email []string
	tokens       [][]string
}

// matching returns the identities' parts, split on first use.
func (h *history) matching() *identityParts {
	h.partsOnce.Do(func() {
		m := &identityParts{plain: make([]string, len(h.lower)), email: make([]string, len(h.lower)), tokens: make([][]string, len(h.lower))}
		for i, id := range h.lower {
			name, email := splitIdentity(id)
			m.plain[i], m.email[i] = plainName(name), email
			m.tokens[i] = tokens(m.plain[i] + " " + email)
		}
		h.parts = m
	})
	return h.parts
}

// containing returns the identities containing value case-insensitively,
// as `git log -i --author` and the retrieval match.
func (h *history) containing(value string) []int {
	v := strings.ToLower(value)
	var out []int
	for i, id := range h.lower {
		if strings.Contains(id, v) {
			out = append(out, i)
		}
	}
	return out
}

// tokens splits s into its runs of letters and digits.
func tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// containsRun reports whether want occurs in have as consecutive whole
// tokens.
func containsRun(have, want []string) bool {
	if len(want) == 0 {
		return false
	}
	for i := 0; i+len(want) <= len(have); i++ {
		if slices.Equal(have[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// splitIdentity splits "Name <email>" into its name and e-mail address.
func splitIdentity(id string) (name, email string) {
	at := strings.LastIndex(id, " <")
	if at < 0 {
		return id, ""
	}
	return id[:at], strings.TrimSuffix(id[at+2:], ">")
}

// filterFor is how an author filter (any part of "Name <email>", as `git
// log -i --author` matches) names person p alone, all of their identities
// and nobody else's: their name when it does; else the address their
// identities share ("<dear.chap@gmail.com>" for Naveen Gogineni and
// dearchap; "<simon@crcms.cn>" for simon, whose name is part of Simon
// Eskildsen's); else, for one identity, the identity itself. Else the
// name, the best there is.
func (h *history) filterFor(p person) string {
	members := h.members[p.index]
	if h.namesOnly(p.name, p.index) {
		return p.name
	}
	_, email := splitIdentity(h.lower[members[0]])
	shared := email != ""
	for _, m := range members[1:] {
		_, e := splitIdentity(h.lower[m])
		shared = shared && e == email
	}
	switch {
	case shared && h.namesOnly("<"+email+">", p.index):
		return "<" + email + ">"
	case len(members) == 1:
		return h.identities[members[0]]
	}
	return p.name
}

// namesOnly reports whether a filter value matches every identity of
// person index and no one else's (in any case, as containing matches).
func (h *history) namesOnly(value string, index int) bool {
	matched := 0
	for _, i := range h.containing(value) {
		if h.personOf[i] != index {
			return false
		}
		matched++
	}
	return matched == len(h.members[index])
}
