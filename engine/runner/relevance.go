package runner

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
)

// maxRanked bounds the records a ranked retrieval gathers from one source
// before ranking them: the rest are not looked at.
const maxRanked = 20000

// titleWeight is how many times a record's title (a section's heading)
// counts against its body: a heading naming the topic is about it, a body
// may only mention it.
const titleWeight = 3

// ranking is what a step's ranked retrievals judged: the terms they ranked
// by, the records they looked at and kept, and the terms the most relevant
// record matches (all of them: the answer is about the question; some: it
// is about part of it).
type ranking struct {
	terms      []string
	seen, kept int
	best       []string
}

// add merges another ranked retrieval of the same step.
func (g *ranking) add(o ranking) {
	g.terms = o.terms
	g.seen += o.seen
	g.kept += o.kept
	if len(o.best) > len(g.best) {
		g.best = o.best
	}
}

// fetchRanked runs a ranked retrieval p on src: it gathers the source's
// records, keeps the ones relevant to the question, most relevant first,
// at most p's limit of them (0: all), passes those to emit and says what
// it judged.
func (r *run) fetchRanked(ctx context.Context, src string, req sdk.FetchRequest, p engine.RetrievalPlan, emit func(sdk.Record)) (ranking, error) {
	var pool []sdk.Record
	_, err := r.fetchFrom(ctx, src, req, func(rec sdk.Record) {
		if len(pool) < maxRanked {
			pool = append(pool, rec)
		}
	})
	terms := r.rankTerms(p.RankIgnore)
	best, matched := relevant(terms, p.RankWeights, pool)
	if p.Limit > 0 && len(best) > p.Limit {
		best = best[:p.Limit]
	}
	for _, rec := range best {
		emit(rec)
	}
	return ranking{terms: terms, seen: len(pool), kept: len(best), best: matched}, err
}

// rankTerms are the terms a ranked retrieval ranks by: the question's
// topics, else its content words less the retrieval's ignored words.
func (r *run) rankTerms(ignore []string) []string {
	if terms := topicTerms(r.topics()); len(terms) > 0 {
		return terms
	}
	return slices.DeleteFunc(queryTerms(r.plan.Query), func(t string) bool {
		return slices.ContainsFunc(ignore, func(w string) bool { return strings.EqualFold(w, t) })
	})
}

// relevant is the records that match a term, by BM25 relevance over title
// (titleWeight times) and body scaled by the weight of their file: first
// those matching the most terms, then the most relevant, ties in the
// source's order. matched is the terms the first one matches.
func relevant(terms []string, weights map[string]float64, recs []sdk.Record) (out []sdk.Record, matched []string) {
	docs := make([][]string, len(recs))
	for i, rec := range recs {
		title := tokens(rec.Title)
		doc := make([]string, 0, titleWeight*len(title)+len(rec.Body)/6)
		for range titleWeight {
			doc = append(doc, title...)
		}
		docs[i] = append(doc, tokens(rec.Body)...)
	}
	scores, hits := bm25Hits(docs, terms)
	order := make([]int, 0, len(recs))
	for i, s := range scores {
		if s > 0 {
			scores[i] = s * weightOf(weights, recs[i])
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(len(hits[b]), len(hits[a])); c != 0 {
			return c
		}
		return cmp.Compare(scores[b], scores[a])
	})
	out = make([]sdk.Record, len(order))
	for i, j := range order {
		out[i] = recs[j]
	}
	if len(order) > 0 {
		matched = hits[order[0]]
	}
	return out, matched
}

// weightOf is the lowest weight of the globs that match rec's file (its
// path field, else its ID up to a ":"): a glob without "/" matches the
// file's name, else its path. 1 when none does.
func weightOf(weights map[string]float64, rec sdk.Record) float64 {
	if len(weights) == 0 {
		return 1
	}
	file, _ := rec.Fields["path"].(string)
	if file == "" {
		file, _, _ = strings.Cut(rec.ID, ":")
	}
	w := 1.0
	for glob, gw := range weights {
		name := file
		if !strings.Contains(glob, "/") {
			name = path.Base(file)
		}
		if ok, _ := path.Match(glob, name); ok {
			w = min(w, gw)
		}
	}
	return w
}

// rankedNote is a ranked retrieval's note.
func rankedNote(id, src, query string, rk ranking) string {
	return fmt.Sprintf("%s: %d record(s) from %s relevant to %q, of %d", id, rk.kept, src, strings.TrimSpace(query), rk.seen)
}

// irrelevant says what completed retrieve step st's ranked retrievals did
// not find: "No documentation about hclwrite found in expr's 119
// documents." when no record matched a term, or which terms its most
// relevant record leaves out. "" otherwise.
func (r *run) irrelevant(st *stepState) string {
	if st.status != engine.StatusCompleted {
		return ""
	}
	return r.relevance(st)
}

// relevance is irrelevant's judgement of st's ranked records, whatever
// its status: what the writer is told once the step ran.
func (r *run) relevance(st *stepState) string {
	rk := st.out.Ranked
	// A gap search's step is not judged: the step it searched for says it.
	if st.action() != "retrieve" || rk == nil || len(rk.terms) == 0 || rk.seen == 0 || len(st.search) > 0 {
		return ""
	}
	kind, sources := r.rankedScope(st)
	about := strings.Join(rk.terms, " ")
	switch {
	case rk.kept == 0:
		what := pluralKind(kind)
		if kind == sdk.KindDocument {
			what = "documentation"
		}
		of := pluralKind(kind)
		if rk.seen == 1 {
			of = cmp.Or(kind, "record")
		}
		return fmt.Sprintf("No %s about %s found in %s's %d %s.", what, about, strings.Join(r.sourceNames(sources), " and "), rk.seen, of)
	case len(rk.best) < len(rk.terms):
		var missing []string
		for _, t := range rk.terms {
			if !slices.Contains(rk.best, t) {
				missing = append(missing, fmt.Sprintf("%q", t))
			}
		}
		return fmt.Sprintf("No %s matches all of %q: the most relevant lacks %s.", strings.TrimSuffix(pluralKind(kind), "s"), about, strings.Join(missing, ", "))
	}
	return ""
}

// rankedScope is the record kind and sources of st's ranked retrievals.
func (r *run) rankedScope(st *stepState) (kind string, sources []string) {
	for _, i := range st.plans {
		if i < 0 || i >= len(r.plan.Retrieval.Plans) || !r.plan.Retrieval.Plans[i].Rank {
			continue
		}
		p := r.plan.Retrieval.Plans[i]
		kind = cmp.Or(kind, p.Kind)
		for _, s := range p.Sources {
			if !slices.Contains(sources, s) {
				sources = append(sources, s)
			}
		}
	}
	return kind, sources
}

// sourceNames are what the sources hold, for a reader ("expr", the
// coverage grounding found), else their names.
func (r *run) sourceNames(sources []string) []string {
	out := make([]string, len(sources))
	for i, s := range sources {
		out[i] = s
		if in := r.plan.Interpretation; in != nil {
			for _, v := range in.Sources {
				if v.Name == s && v.Coverage.Name != "" {
					out[i] = v.Coverage.Name
				}
			}
		}
	}
	return out
}
