package git

import (
	"cmp"
	"slices"
	"strings"
)

// person is one author as a question means one: the identities that share
// a name or an e-mail address (any case).
type person struct {
	name    string // the name on most of their commits
	commits int
}

// people groups the identities at ids into persons, most commits first.
func (h *history) people(ids []int) []person {
	root := make(map[int]int, len(ids)) // identity → the identity standing for its person
	find := func(i int) int {
		for root[i] != i {
			root[i] = root[root[i]]
			i = root[i]
		}
		return i
	}
	byKey := map[string]int{}
	for _, i := range ids {
		root[i] = i
		name, email := splitIdentity(h.lower[i])
		for _, key := range [...]string{"n:" + name, "e:" + email} {
			if j, ok := byKey[key]; ok {
				root[find(i)] = find(j)
			} else {
				byKey[key] = i
			}
		}
	}
	type group struct {
		person
		best int // commits of the identity whose name it shows
	}
	groups := map[int]*group{}
	var order []int
	for _, i := range ids {
		r := find(i)
		g := groups[r]
		if g == nil {
			g = &group{}
			groups[r] = g
			order = append(order, r)
		}
		g.commits += h.counts[i]
		if h.counts[i] > g.best {
			g.best = h.counts[i]
			g.name, _ = splitIdentity(h.identities[i])
		}
	}
	out := make([]person, len(order))
	for k, r := range order {
		out[k] = groups[r].person
	}
	slices.SortStableFunc(out, func(a, b person) int {
		return cmp.Or(cmp.Compare(b.commits, a.commits), strings.Compare(a.name, b.name))
	})
	return out
}

// splitIdentity splits "Name <email>" into its name and e-mail address.
func splitIdentity(id string) (name, email string) {
	at := strings.LastIndex(id, " <")
	if at < 0 {
		return id, ""
	}
	return id[:at], strings.TrimSuffix(id[at+2:], ">")
}
