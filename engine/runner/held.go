package runner

import (
	"cmp"
	"slices"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// maxDistinct bounds the distinct authors, sources and states a tally
// counts by name; records of further values are counted as "other".
const maxDistinct = 1000

// held is what a step keeps of its records: at most max of them (the
// newest, each source and ID once), and counts of the rest. Memory follows
// what is shown, not what was fetched: a retrieval of a million records
// holds max of them and a tally.
type held struct {
	max     int
	records []sdk.Record // up to 2*max between compactions; max after done
	omitted tally        // the records left out, counted
}

// newHeld holds at most max records: the plan's loop.max_records, always set.
func newHeld(max int) *held {
	return &held{max: max}
}

// add holds rec, or counts it when newer records fill the selection.
func (h *held) add(rec sdk.Record) {
	h.records = append(h.records, rec)
	if len(h.records) >= 2*h.max {
		h.compact()
	}
}

// merge holds recs and counts what t counted.
func (h *held) merge(recs []sdk.Record, t tally) {
	for _, rec := range recs {
		h.add(rec)
	}
	h.omitted.merge(t)
}

// done returns the selection, in the order the records were added, and
// the tally of the rest.
func (h *held) done() ([]sdk.Record, tally) {
	h.compact()
	return h.records, h.omitted
}

// compact drops duplicates and keeps the newest max records, counting the
// others. The selection keeps arrival order, so what a source ranked first
// stays first.
func (h *held) compact() {
	h.records = dedupe(h.records)
	if len(h.records) <= h.max {
		return
	}
	idx := make([]int, len(h.records))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return newestFirst(h.records[a], h.records[b]) })
	keep := make([]bool, len(h.records))
	for _, i := range idx[:h.max] {
		keep[i] = true
	}
	out := h.records[:0]
	for i, rec := range h.records {
		if keep[i] {
			out = append(out, rec)
		} else {
			h.omitted.add(rec)
		}
	}
	clear(h.records[len(out):]) // let the left-out records go
	h.records = out
}

// newestFirst orders records newest first, then by source and ID, so the
// selection does not depend on arrival order.
func newestFirst(a, b sdk.Record) int {
	return cmp.Or(b.Time.Compare(a.Time), cmp.Compare(a.Source, b.Source), cmp.Compare(a.ID, b.ID))
}

// tally counts records by kind, with per-kind counts by author, source
// and state and the time span: what answers and agents need of records
// that are not held.
type tally map[string]*kindTally

// kindTally counts the records of one kind.
type kindTally struct {
	Count            int
	Authors          map[string]int
	Sources          map[string]int
	States           map[string]int
	OtherAuthors     int // records whose author is beyond maxDistinct
	OtherSources     int
	OtherStates      int
	Earliest, Latest time.Time
	// Lines tallies line statistics, once a record carries them;
	// NoStats and Merges count the commits that carry none.
	Lines           *sdk.LineStats
	NoStats, Merges int
}

// count is the number of records counted, over every kind.
func (t tally) count() int {
	n := 0
	for _, k := range t {
		n += k.Count
	}
	return n
}

// add counts rec.
func (t *tally) add(rec sdk.Record) {
	if *t == nil {
		*t = tally{}
	}
	k := (*t)[rec.Kind]
	if k == nil {
		k = &kindTally{}
		(*t)[rec.Kind] = k
	}
	k.Count++
	bump(&k.Authors, &k.OtherAuthors, rec.Author, 1)
	bump(&k.Sources, &k.OtherSources, rec.Source, 1)
	bump(&k.States, &k.OtherStates, recordState(rec), 1)
	k.span(rec.Time, rec.Time)
	k.addLines(rec)
}

// addLines counts rec's line statistics: only a step whose records carry
// them (a source that applied with_stats) keeps a LineStats.
func (k *kindTally) addLines(rec sdk.Record) {
	var probe sdk.LineStats
	if _, ok := rec.Fields["additions"]; !ok {
		probe.Add(rec) // counts a merge or a commit without statistics
		k.NoStats += probe.Without
		k.Merges += probe.Merges
		return
	}
	if k.Lines == nil {
		k.Lines = &sdk.LineStats{}
	}
	k.Lines.Add(rec)
}

// hasLines reports whether rec carries line statistics.
func hasLines(rec sdk.Record) bool {
	_, ok := rec.Fields["additions"]
	return ok
}

// lines is k's line statistics with the commits that carry none, nil when
// no record carried any.
func (k kindTally) lines() *sdk.LineStats {
	if k.Lines == nil {
		return nil
	}
	ls := *k.Lines
	ls.Without += k.NoStats
	ls.Merges += k.Merges
	return &ls
}

// merge adds the counts of o.
func (t *tally) merge(o tally) {
	if len(o) == 0 {
		return
	}
	if *t == nil {
		*t = tally{}
	}
	for kind, ok := range o {
		k := (*t)[kind]
		if k == nil {
			k = &kindTally{}
			(*t)[kind] = k
		}
		k.Count += ok.Count
		k.OtherAuthors += ok.OtherAuthors
		k.OtherSources += ok.OtherSources
		k.OtherStates += ok.OtherStates
		k.NoStats += ok.NoStats
		k.Merges += ok.Merges
		for _, name := range sortedKeys(ok.Authors) {
			bump(&k.Authors, &k.OtherAuthors, name, ok.Authors[name])
		}
		for _, name := range sortedKeys(ok.Sources) {
			bump(&k.Sources, &k.OtherSources, name, ok.Sources[name])
		}
		for _, name := range sortedKeys(ok.States) {
			bump(&k.States, &k.OtherStates, name, ok.States[name])
		}
		k.span(ok.Earliest, ok.Latest)
		if ok.Lines != nil {
			if k.Lines == nil {
				k.Lines = &sdk.LineStats{}
			}
			k.Lines.Merge(ok.Lines)
		}
	}
}

// of is the part of t of kinds (all of it when kinds is empty).
func (t tally) of(kinds []string) tally {
	if len(kinds) == 0 {
		return t
	}
	out := tally{}
	for kind, k := range t {
		if slices.Contains(kinds, kind) {
			out[kind] = k
		}
	}
	return out
}

// authors is the set of authors counted, lower-cased as answers count
// them.
func (t tally) authors() map[string]bool {
	out := map[string]bool{}
	for _, k := range t {
		for a := range k.Authors {
			out[normAuthor(a)] = true
		}
	}
	return out
}

// span widens the time span to [earliest, latest]; zero times are ignored.
func (k *kindTally) span(earliest, latest time.Time) {
	if !earliest.IsZero() && (k.Earliest.IsZero() || earliest.Before(k.Earliest)) {
		k.Earliest = earliest
	}
	if latest.After(k.Latest) {
		k.Latest = latest
	}
}

// bump adds n to m[name], or to *other once m holds maxDistinct names.
func bump(m *map[string]int, other *int, name string, n int) {
	if name == "" {
		return
	}
	if *m == nil {
		*m = map[string]int{}
	}
	if _, ok := (*m)[name]; !ok && len(*m) >= maxDistinct {
		*other += n
		return
	}
	(*m)[name] += n
}

// recordState is a record's state (an issue's status), if it has one.
func recordState(rec sdk.Record) string {
	for _, k := range []string{"status", "state"} {
		if s, ok := rec.Fields[k].(string); ok {
			return s
		}
	}
	return ""
}

// total is t over every kind.
func (t tally) total() kindTally {
	sum := tally{}
	for _, kind := range sortedKeys(t) {
		sum.merge(tally{"": t[kind]})
	}
	if k := sum[""]; k != nil {
		return *k
	}
	return kindTally{}
}

// evidence summarises shown and omitted together for an agent, nil when
// nothing was left out (the context is then the whole set) and no record
// carries line statistics (an agent is not left to sum them itself).
func evidence(shown []sdk.Record, omitted tally) *sdk.Evidence {
	if omitted.count() == 0 && !slices.ContainsFunc(shown, hasLines) {
		return nil
	}
	var all tally
	for _, rec := range shown {
		all.add(rec)
	}
	all.merge(omitted)
	k := all.total()
	ev := &sdk.Evidence{Total: k.Count, Shown: len(shown), Kinds: map[string]int{},
		Authors: k.Authors, OtherAuthors: k.OtherAuthors, Sources: k.Sources,
		States: k.States, OtherStates: k.OtherStates, Earliest: k.Earliest, Latest: k.Latest, Lines: k.lines()}
	for kind, t := range all {
		ev.Kinds[kind] = t.Count
	}
	return ev
}
