package exec

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/timerange"
)

// transform runs a deterministic built-in transform on the input records.
func (r *run) transform(action string, in []sdk.Record) (output, error) {
	switch action {
	case "filter":
		return r.filter(in)
	case "rank":
		return rank(r.plan.Query, in), nil
	case "aggregate":
		return aggregate(in), nil
	default:
		return stats(in), nil
	}
}

// filter keeps records inside the dates entity's range and matching the
// other entities where a record carries that field.
func (r *run) filter(in []sdk.Record) (output, error) {
	ents := r.plan.Reasoning.Entities
	var rg *timerange.Range
	if v := ents[datesFilter]; len(v) > 0 {
		got, err := timerange.Resolve(v, r.e.opts.Clock())
		if err != nil {
			return output{}, fmt.Errorf("filter: dates: %w", err)
		}
		rg = &got
	}
	keys := sortedKeys(ents)
	kept := make([]sdk.Record, 0, len(in))
	for _, rec := range dedupe(slices.Clone(in)) {
		if rg != nil && !rec.Time.IsZero() && !rg.Contains(rec.Time) {
			continue
		}
		if matchesEntities(rec, ents, keys) {
			kept = append(kept, rec)
		}
	}
	return output{Records: kept, Text: fmt.Sprintf("kept %d of %d record(s)", len(kept), len(in))}, nil
}

// matchesEntities checks entity values against a record field of the same
// name (or its singular); records without the field pass.
func matchesEntities(rec sdk.Record, ents map[string][]string, keys []string) bool {
	for _, k := range keys {
		if k == datesFilter || len(ents[k]) == 0 {
			continue
		}
		v, ok := rec.Fields[k]
		if !ok {
			v, ok = rec.Fields[strings.TrimSuffix(k, "s")]
		}
		if !ok {
			continue
		}
		var have []string
		switch x := v.(type) {
		case string:
			have = []string{x}
		case []string:
			have = x
		default:
			continue
		}
		if !slices.ContainsFunc(have, func(h string) bool {
			return slices.ContainsFunc(ents[k], func(w string) bool { return strings.EqualFold(h, w) })
		}) {
			return false
		}
	}
	return true
}

// rank orders records by how many query terms they mention, then newest
// first, then by ID.
func rank(query string, in []sdk.Record) output {
	terms := queryTerms(query)
	type scored struct {
		rec   sdk.Record
		score int
	}
	list := make([]scored, len(in))
	for i, rec := range in {
		text := strings.ToLower(rec.Title + " " + rec.Body)
		s := 0
		for _, t := range terms {
			if strings.Contains(text, t) {
				s++
			}
		}
		list[i] = scored{rec, s}
	}
	slices.SortStableFunc(list, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := b.rec.Time.Compare(a.rec.Time); c != 0 {
			return c
		}
		return cmp.Compare(a.rec.ID, b.rec.ID)
	})
	out := make([]sdk.Record, len(list))
	for i, s := range list {
		out[i] = s.rec
	}
	return output{Records: out, Text: fmt.Sprintf("ranked %d record(s) by relevance to %d query term(s)", len(out), len(terms))}
}

// stopWords are left out of ranking terms.
var stopWords = map[string]bool{
	"the": true, "a": true, "an": true, "in": true, "on": true, "of": true, "to": true, "is": true, "are": true,
	"what": true, "which": true, "how": true, "many": true, "this": true, "that": true, "last": true, "week": true,
	"and": true, "or": true, "for": true, "with": true, "was": true, "were": true, "did": true, "does": true, "do": true,
}

func queryTerms(q string) []string {
	var terms []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > 2 && !stopWords[w] && !slices.Contains(terms, w) {
			terms = append(terms, w)
		}
	}
	return terms
}

// aggregate merges the inputs and summarises them by kind and source.
func aggregate(in []sdk.Record) output {
	recs := dedupe(slices.Clone(in))
	return output{Records: recs, Text: fmt.Sprintf("aggregated %d record(s): by kind %s; by source %s",
		len(recs), counts(recs, func(r sdk.Record) string { return r.Kind }), counts(recs, func(r sdk.Record) string { return r.Source }))}
}

// stats counts records by kind, source and author.
func stats(in []sdk.Record) output {
	return output{Records: in, Text: fmt.Sprintf("%d record(s); kinds: %s; sources: %s; authors: %s", len(in),
		counts(in, func(r sdk.Record) string { return r.Kind }),
		counts(in, func(r sdk.Record) string { return r.Source }),
		counts(in, func(r sdk.Record) string { return r.Author }))}
}

// counts formats value counts, most frequent first, then by name.
func counts(recs []sdk.Record, key func(sdk.Record) string) string {
	m := map[string]int{}
	for _, r := range recs {
		if k := key(r); k != "" {
			m[k]++
		}
	}
	if len(m) == 0 {
		return "none"
	}
	keys := sortedKeys(m)
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(m[b], m[a]) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
