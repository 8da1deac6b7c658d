package template

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/nous-dev/nous/sdk"
)

// answerCounts are what an answer counts: the records of each kind and their
// authors. When the engine held more records than it could show, they are
// the whole set's, not the shown selection's.
type answerCounts struct {
	kinds       []tally
	authors     int
	moreAuthors bool // authors beyond those the engine named
	total       int
	shown       int // < total when only a selection is in the context
}

func countsOf(ev evidence) answerCounts {
	if !ev.partial() {
		t := answerCounts{authors: len(ev.authors), total: len(ev.records), shown: len(ev.records)}
		for _, g := range ev.groups {
			t.kinds = append(t.kinds, tally{g.kind, len(g.records)})
		}
		return t
	}
	whole := ev.whole
	t := answerCounts{authors: len(whole.Authors), moreAuthors: whole.OtherAuthors > 0, total: whole.Total, shown: len(ev.records)}
	for kind, n := range whole.Kinds {
		t.kinds = append(t.kinds, tally{kind, n})
	}
	slices.SortFunc(t.kinds, func(a, b tally) int {
		return cmp.Or(cmp.Compare(kindRank(a.name), kindRank(b.name)), cmp.Compare(a.name, b.name))
	})
	return t
}

// kindRank orders kinds as drafts list them (kindOrder), unknown kinds last.
func kindRank(kind string) int {
	if i := slices.Index(kindOrder, kind); i >= 0 {
		return i
	}
	return len(kindOrder)
}

func (t answerCounts) phrases(l *labels) []string {
	parts := make([]string, 0, len(t.kinds))
	for _, k := range t.kinds {
		parts = append(parts, countPhrase(l, k.name, k.n))
	}
	return parts
}

func (t answerCounts) authorPhrase() string {
	if t.moreAuthors {
		return "more than " + strconv.Itoa(t.authors) + " authors"
	}
	return plural(t.authors, "author", "authors")
}

// selectionNote says that the listed records are a selection, or nothing.
func (t answerCounts) selectionNote(l *labels) string {
	if t.shown >= t.total {
		return ""
	}
	if l == labelSets["zh"] {
		return fmt.Sprintf("（列出最新的 %d 条）", t.shown)
	}
	return fmt.Sprintf(" (the newest %d are listed)", t.shown)
}

// holds is how many records of kind ("record": of any kind) the answer is
// about: the context's, or the whole set's when it shows only some.
func (ev evidence) holds(kind string) int {
	n := len(ev.records)
	if kind != "record" {
		n = ev.count(kind)
	}
	if !ev.partial() {
		return n
	}
	if kind == "record" {
		return max(n, ev.whole.Total)
	}
	return max(n, ev.whole.Kinds[kind])
}

// with returns ev with the engine's summary of every record it held (nil
// when the context shows them all).
func (ev evidence) with(whole *sdk.Evidence) evidence {
	ev.whole = whole
	return ev
}

// partial reports whether the context shows only some of the records the
// engine held.
func (ev evidence) partial() bool {
	return ev.whole != nil && ev.whole.Total > len(ev.records)
}

// authorTallies are the authors to name, most records first: the whole
// set's when the context shows only some.
func (ev evidence) authorTallies() []tally {
	if ev.partial() {
		return tallies(ev.whole.Authors)
	}
	return ev.authors
}

// sampled is format, or sample (which says its counts are of the listed
// records) when the context shows only some of the records.
func (ev evidence) sampled(format, sample string) string {
	if ev.partial() {
		return sample
	}
	return format
}

// inPeriodPhrase says how many records fall in the asked period t: of the
// whole set when its span lies inside t, else of the listed records,
// saying they are the newest.
func (ev evidence) inPeriodPhrase(l *labels, t sdk.TimeRange) string {
	if len(t.Kinds) > 0 {
		// Only records of the kinds the period was applied to can be in it.
		recs := make([]sdk.Record, 0, len(ev.records))
		for _, r := range ev.records {
			if slices.Contains(t.Kinds, r.Kind) {
				recs = append(recs, r)
			}
		}
		return fmt.Sprintf(ev.sampled(l.InPeriod, l.InPeriodSample), inPeriod(recs, t), len(recs))
	}
	if !ev.partial() {
		return fmt.Sprintf(l.InPeriod, inPeriod(ev.records, t), len(ev.records))
	}
	w := ev.whole
	if !w.Earliest.IsZero() && !w.Earliest.Before(t.Since) && (t.Until.IsZero() || w.Latest.Before(t.Until)) {
		return fmt.Sprintf(l.InPeriod, w.Total, w.Total)
	}
	return fmt.Sprintf(l.InPeriodSample, inPeriod(ev.records, t), len(ev.records))
}
