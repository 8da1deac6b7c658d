package template

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

// kindOrder is the order kinds are presented in; other kinds follow, sorted.
var kindOrder = []string{sdk.KindCommit, sdk.KindIssue, sdk.KindMergeRequest, sdk.KindPipeline, sdk.KindDocument}

// evidence is the context records organised for writing: sorted, grouped
// by kind, with tallies and a time span. Everything is in a fixed order so
// the same records always read the same.
type evidence struct {
	records  []sdk.Record // newest first, then by ID
	ordered  []sdk.Record // by kind (kindOrder), then newest first: the order drafts list them in
	groups   []kindGroup
	authors  []tally
	projects []tally
	first    time.Time // earliest record time, zero when none has one
	last     time.Time
	// outside are the records the engine marked as lying outside the asked
	// period (the nearest activity around an empty one), newest first:
	// context for the answer, never counted in it.
	outside []sdk.Record
	// whole counts every record the engine held when it sent only some.
	whole *sdk.Evidence
}

type kindGroup struct {
	kind    string
	records []sdk.Record
}

type tally struct {
	name string
	n    int
}

// gather organises records into evidence without modifying them.
func gather(records []sdk.Record) evidence {
	// Sort pointers, not the records themselves: a record is ~200 bytes.
	ptrs := make([]*sdk.Record, len(records))
	for i := range records {
		ptrs[i] = &records[i]
	}
	slices.SortStableFunc(ptrs, compareRecords)
	ev := evidence{records: make([]sdk.Record, 0, len(ptrs))}
	for _, p := range ptrs {
		if outside(*p) {
			ev.outside = append(ev.outside, *p)
		} else {
			ev.records = append(ev.records, *p)
		}
	}

	counts := map[string]int{}
	authors := map[string]int{}
	projects := map[string]int{}
	for _, r := range ev.records {
		counts[r.Kind]++
		if r.Author != "" {
			authors[r.Author]++
		}
		if p := project(r); p != "" {
			projects[p]++
		}
		if r.Time.IsZero() {
			continue
		}
		if ev.first.IsZero() || r.Time.Before(ev.first) {
			ev.first = r.Time
		}
		if r.Time.After(ev.last) {
			ev.last = r.Time
		}
	}
	kinds := make([]string, 0, len(counts))
	for _, k := range kindOrder {
		if counts[k] > 0 {
			kinds = append(kinds, k)
		}
	}
	rest := make([]string, 0, len(counts)-len(kinds))
	for k := range counts {
		if !slices.Contains(kindOrder, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	kinds = append(kinds, rest...)
	// Each group is a part of ordered, filled in one pass: the records are
	// copied once, not grown kind by kind and then copied again. A group's
	// capacity ends with it, so nothing appended to one spills into the next.
	if len(ev.records) > 0 {
		ev.ordered = make([]sdk.Record, len(ev.records))
		next := make(map[string]int, len(kinds))
		at := 0
		for _, k := range kinds {
			next[k] = at
			ev.groups = append(ev.groups, kindGroup{kind: k, records: ev.ordered[at : at+counts[k] : at+counts[k]]})
			at += counts[k]
		}
		for _, r := range ev.records {
			ev.ordered[next[r.Kind]] = r
			next[r.Kind]++
		}
	}
	ev.authors = tallies(authors)
	ev.projects = tallies(projects)
	return ev
}

// compareRecords orders newest first, undated records last, then by every
// field shown, so input order never shows through.
func compareRecords(a, b *sdk.Record) int {
	switch {
	case a.Time.IsZero() && b.Time.IsZero() && a.Kind == b.Kind && a.Kind == sdk.KindDocument:
		return 0 // undated documents keep their order: a ranked retrieval's, most relevant first
	case a.Time.IsZero() != b.Time.IsZero():
		if a.Time.IsZero() {
			return 1
		}
		return -1
	case !a.Time.Equal(b.Time):
		return b.Time.Compare(a.Time)
	}
	return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Source, b.Source), cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Title, b.Title), cmp.Compare(a.URL, b.URL), cmp.Compare(a.Author, b.Author),
		cmp.Compare(a.Tier, b.Tier), cmp.Compare(a.Body, b.Body))
}

// tallies sorts counts by count, highest first, then by name.
func tallies(m map[string]int) []tally {
	out := make([]tally, 0, len(m))
	for name, n := range m {
		out = append(out, tally{name, n})
	}
	slices.SortFunc(out, func(a, b tally) int {
		return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.name, b.name))
	})
	return out
}

// count returns how many records of kind the evidence holds.
func (ev evidence) count(kind string) int {
	for _, g := range ev.groups {
		if g.kind == kind {
			return len(g.records)
		}
	}
	return 0
}

// project is the project a record belongs to, from its "project" field.
func project(r sdk.Record) string {
	p, _ := r.Fields["project"].(string)
	return p
}

// fieldOutside marks a record the engine found outside the asked period
// ("nearest_before", "nearest_after").
const fieldOutside = "nous.outside"

// outside reports whether r lies outside the asked period.
func outside(r sdk.Record) bool {
	switch v := r.Fields[fieldOutside].(type) {
	case bool:
		return v
	case string:
		return v != "" && v != "false"
	}
	return false
}

// displayID is how a record's id is shown: the source's short_id (a
// commit hash abbreviated as git does), else shortID.
func displayID(r sdk.Record) string {
	if s, ok := r.Fields["short_id"].(string); ok && s != "" {
		return s
	}
	return shortID(r.ID)
}

// shortID abbreviates long hexadecimal IDs (commit hashes) to 8 characters.
func shortID(id string) string {
	if len(id) < 12 {
		return id
	}
	for _, c := range id {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return id
		}
	}
	return id[:8]
}

// title is a record's title, else the first line of its body, else its ID.
func title(r sdk.Record) string {
	t := strings.TrimSpace(r.Title)
	if t == "" {
		t, _, _ = strings.Cut(strings.TrimSpace(r.Body), "\n")
	}
	if t == "" {
		t = r.ID
	}
	return text.Clip(text.OneLine(t), 120)
}

// day formats a time as a UTC date.
func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

// metaType is the tier table's type of a record's source, which the
// engine's tier filter adds to every record (the `_reasoning_metadata` of
// the source documents, flattened).
const metaType = "_reasoning_metadata.type"

// lowTier reports whether a record comes from an unknown or tier ≥ 3 source,
// by the tier the engine's tier filter assigned it in every mode (the
// source's own tier for a record the engine has not seen).
func lowTier(r sdk.Record) bool {
	return r.Tier == 0 || r.Tier >= 3
}

// sourceType is the tier table's type for a record's source, else (when
// the table does not know it) the source's own name.
func sourceType(r sdk.Record) string {
	if t, ok := r.Fields[metaType].(string); ok && t != "" && t != "unknown" {
		return t
	}
	return r.Source
}

// cited reports whether draft names the record: its ID or short ID in
// backticks, or as a whole word when it is long enough (4 characters or
// more) not to match by accident.
func cited(draft string, r sdk.Record) bool {
	if r.ID == "" {
		return false
	}
	short := displayID(r)
	if strings.Contains(draft, "`"+short+"`") || strings.Contains(draft, "`"+r.ID+"`") {
		return true
	}
	if len(r.ID) < 4 {
		return false
	}
	return containsWord(draft, r.ID) || (short != r.ID && containsWord(draft, short))
}

// citations answers cited for one draft. The draft's words are split once,
// so asking of each of a few hundred records does not scan the draft four
// times a record; IDs that are not one word fall back to cited.
type citations struct {
	draft string
	words map[string]struct{} // the draft's maximal runs of word bytes
}

// newCitations splits draft into its words.
func newCitations(draft string) citations {
	c := citations{draft: draft, words: map[string]struct{}{}}
	for i := 0; i < len(draft); {
		if !isWordByte(draft[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(draft) && isWordByte(draft[j]) {
			j++
		}
		c.words[draft[i:j]] = struct{}{}
		i = j
	}
	return c
}

// cites is cited(c.draft, r). When the ID and its short form are each one
// word of at least four bytes, containsWord finds them exactly when they
// are words of the draft, and a backquoted form is such a word too.
func (c citations) cites(r sdk.Record) bool {
	if len(r.ID) < 4 || !isWord(r.ID) {
		return cited(c.draft, r)
	}
	short := displayID(r)
	if !isWord(short) {
		return cited(c.draft, r)
	}
	_, id := c.words[r.ID]
	_, s := c.words[short]
	return id || s
}

// isWord reports whether s is non-empty and all word bytes.
func isWord(s string) bool {
	for i := range len(s) {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// containsWord reports whether word occurs in s not glued to letters,
// digits or underscores on either side.
func containsWord(s, word string) bool {
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(word)
		if (start == 0 || !isWordByte(s[start-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		i = start + 1
	}
	return false
}
