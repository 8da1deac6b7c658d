package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// maxRanked bounds the records a ranked retrieval gathers from one source
// before ranking them: the rest are not looked at.
const maxRanked = 20000

// fetchRanked runs a ranked retrieval (RetrievalPlan.Rank) on src: it
// gathers the source's records, keeps the ones relevant to the question,
// most relevant first, at most limit of them (0: all), passes those to
// emit and says how many it passed and of how many.
func (r *run) fetchRanked(ctx context.Context, src string, req sdk.FetchRequest, limit int, emit func(sdk.Record)) (kept, seen int, err error) {
	var pool []sdk.Record
	_, err = r.fetchFrom(ctx, src, req, func(rec sdk.Record) {
		if len(pool) < maxRanked {
			pool = append(pool, rec)
		}
	})
	best := relevant(r.plan.Query, r.topics(), pool)
	if limit > 0 && len(best) > limit {
		best = best[:limit]
	}
	for _, rec := range best {
		emit(rec)
	}
	return len(best), len(pool), err
}

// relevant is the records that match a term of the question (its topics,
// else its content words), by BM25 relevance over title and body, most
// relevant first, ties in the source's order.
func relevant(query string, topics []string, recs []sdk.Record) []sdk.Record {
	terms := topicTerms(topics)
	if len(terms) == 0 {
		terms = queryTerms(query)
	}
	docs := make([][]string, len(recs))
	for i, rec := range recs {
		docs[i] = tokens(rec.Title + "\n" + rec.Body)
	}
	scores := bm25(docs, terms)
	order := make([]int, 0, len(recs))
	for i, s := range scores {
		if s > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	out := make([]sdk.Record, len(order))
	for i, j := range order {
		out[i] = recs[j]
	}
	return out
}

// rankedNote is a ranked retrieval's note.
func rankedNote(id, src, query string, kept, seen int) string {
	return fmt.Sprintf("%s: %d record(s) from %s relevant to %q, of %d", id, kept, src, strings.TrimSpace(query), seen)
}
