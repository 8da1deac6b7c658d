package runner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/timerange"
)

// transform runs a deterministic built-in transform on the input records.
func (r *run) transform(action string, in []sdk.Record) (output, error) {
	switch action {
	case "filter":
		return r.filter(in)
	case "rank":
		return rank(r.plan.Query, r.topics(), in), nil
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
		// The nearest activity outside an empty period is kept: it is what
		// the answer says instead of nothing.
		if rg != nil && !rec.Time.IsZero() && !rg.Contains(rec.Time) && OutsideOf(rec) == "" {
			continue
		}
		if matchesEntities(rec, ents, keys) {
			kept = append(kept, rec)
		}
	}
	return output{Records: kept, Text: fmt.Sprintf("kept %d of %d record(s)", len(kept), len(in))}, nil
}

// matchesEntities checks entity values against a record field of the same
// name (or its singular); records without the field pass. A path value
// matches the files under it, as `git log -- DIR` does.
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
		match := strings.EqualFold
		if k == "paths" || k == "path" {
			match = underPath
		}
		if !slices.ContainsFunc(have, func(h string) bool {
			return slices.ContainsFunc(ents[k], func(w string) bool { return match(h, w) })
		}) {
			return false
		}
	}
	return true
}

// rank orders records by BM25 relevance to the question's topics (the
// topics entity; else the question's content words), over title and body,
// then newest first, then by ID. With topics, a record that mentions none
// of them (case-insensitive substring, as the topics filter matches) comes
// after every record that does.
func rank(query string, topics []string, in []sdk.Record) output {
	terms := topicTerms(topics)
	if len(terms) == 0 {
		terms = queryTerms(query)
	}
	docs := make([][]string, len(in))
	texts := make([]string, len(in))
	for i, rec := range in {
		texts[i] = strings.ToLower(rec.Title + "\n" + rec.Body)
		docs[i] = tokens(texts[i])
	}
	scores := bm25(docs, terms)
	type scored struct {
		rec     sdk.Record
		score   float64
		matches bool
	}
	list := make([]scored, len(in))
	for i, rec := range in {
		list[i] = scored{rec: rec, score: scores[i], matches: mentionsAny(texts[i], topics)}
	}
	slices.SortStableFunc(list, func(a, b scored) int {
		if a.matches != b.matches {
			if a.matches {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := b.rec.Time.Compare(a.rec.Time); c != 0 {
			return c
		}
		return cmp.Compare(a.rec.ID, b.rec.ID)
	})
	out := make([]sdk.Record, len(list))
	matched := 0
	for i, s := range list {
		out[i] = s.rec
		if s.matches {
			matched++
		}
	}
	text := fmt.Sprintf("ranked %d record(s) by BM25 relevance to %d query term(s)", len(out), len(terms))
	if len(topics) > 0 {
		text = fmt.Sprintf("ranked %d record(s) by BM25 relevance to the topics %s; %d mention one", len(out), strings.Join(topics, ", "), matched)
	}
	return output{Records: out, Text: text}
}

// topics are the question's topics: the topics entity, else the topics
// constraints of the interpretation.
func (r *run) topics() []string {
	if v := r.plan.Reasoning.Entities[topicsKey]; len(v) > 0 {
		return v
	}
	var out []string
	if in := r.plan.Interpretation; in != nil {
		for _, c := range in.Constraints {
			if c.Key == topicsKey && c.Value != "" {
				out = append(out, c.Value)
			}
		}
	}
	return out
}

// topicsKey is the entity whose values rank records.
const topicsKey = "topics"

// topicTerms are the distinct tokens of the topics.
func topicTerms(topics []string) []string {
	var terms []string
	for _, t := range topics {
		for _, w := range tokens(t) {
			if !slices.Contains(terms, w) {
				terms = append(terms, w)
			}
		}
	}
	return terms
}

// mentionsAny reports whether lower-cased text contains any topic.
func mentionsAny(text string, topics []string) bool {
	return slices.ContainsFunc(topics, func(t string) bool {
		t = strings.ToLower(strings.TrimSpace(t))
		return t != "" && strings.Contains(text, t)
	})
}

// stopWords are left out of ranking terms: function words and the words
// every question about a project uses.
var stopWords = map[string]bool{
	"the": true, "a": true, "an": true, "in": true, "on": true, "of": true, "to": true, "is": true, "are": true,
	"what": true, "which": true, "how": true, "many": true, "this": true, "that": true, "last": true, "week": true,
	"and": true, "or": true, "for": true, "with": true, "was": true, "were": true, "did": true, "does": true, "do": true,
	"about": true, "who": true, "when": true, "where": true, "why": true, "since": true, "from": true, "between": true,
	"before": true, "after": true, "until": true, "there": true, "have": true, "has": true, "had": true, "been": true,
	"made": true, "make": true, "show": true, "list": true, "all": true, "any": true, "new": true, "whats": true,
	"changed": true, "change": true, "changes": true, "commit": true, "commits": true, "committed": true,
	"happened": true, "worked": true, "work": true, "touched": true, "mention": true, "mentions": true,
	"pushed": true, "merged": true, "past": true, "days": true, "weeks": true, "month": true, "months": true,
	"year": true, "years": true, "today": true, "yesterday": true, "quarter": true, "half": true, "first": true, "second": true,
}

func queryTerms(q string) []string {
	var terms []string
	for _, w := range tokens(q) {
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

// underPath reports whether file is path or lies under the directory path
// (case-insensitive, as the other entities compare; a trailing slash on
// path is ignored).
func underPath(file, path string) bool {
	path = strings.TrimSuffix(path, "/")
	if path == "" || strings.EqualFold(file, path) {
		return path != ""
	}
	return len(file) > len(path) && file[len(path)] == '/' && strings.EqualFold(file[:len(path)], path)
}
