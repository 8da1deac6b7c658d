package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nous-dev/nous/engine"
)

// maxQueryError bounds a query result's error, in runes.
const maxQueryError = 300

// queryRun is one execution of a retrieval plan's query, source by source.
type queryRun struct {
	records  int
	answered int
	errs     []string
	nearest  string // the step's nearest refinement, when it ran as one
}

// add counts a source's answer: n records, and the error its call ended in.
func (q *queryRun) add(src string, n int, err error) {
	q.records += n
	if err == nil || n > 0 {
		q.answered++
	}
	if err != nil {
		q.errs = append(q.errs, fmt.Sprintf("source %q: %v", src, err))
	}
}

// fail records an error that kept the query from being asked at all.
func (q *queryRun) fail(err error) { q.errs = append(q.errs, err.Error()) }

// noteQuery keeps q as the last execution of retrieval plan pi. Workers
// call it.
func (r *run) noteQuery(pi int, q queryRun) {
	res := engine.QueryResult{Status: engine.QuerySucceeded, Records: q.records, Nearest: q.nearest}
	switch {
	case q.answered == 0:
		res.Status = engine.QueryFailed
	case len(q.errs) > 0:
		res.Status = engine.QueryPartial
	}
	if len(q.errs) > 0 {
		res.Error = clip(oneLine(r.e.opts.Redactor.String(strings.Join(q.errs, "; "))), maxQueryError)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.queries == nil {
		r.queries = make([]engine.QueryResult, len(r.plan.Retrieval.Plans))
	}
	if pi >= 0 && pi < len(r.queries) {
		r.queries[pi] = res
	}
}

// executedQueries are the plan's queries with their results: a copy, so the
// plan (which a caller may share) is not changed. A query whose plan never
// ran is not_run.
func (r *run) executedQueries() []engine.Query {
	r.mu.Lock()
	defer r.mu.Unlock()
	qs := slices.Clone(r.plan.Retrieval.Queries)
	results := make([]engine.QueryResult, len(qs))
	for i := range qs {
		results[i] = engine.QueryResult{Status: engine.QueryNotRun}
		if i < len(r.queries) && r.queries[i].Status != "" {
			results[i] = r.queries[i]
		}
		qs[i].Results = &results[i]
	}
	return qs
}

// executedPlan is a copy of the plan whose queries carry qs; the plan
// itself when it has none.
func (r *run) executedPlan(qs []engine.Query) *engine.Plan {
	if len(qs) == 0 {
		return r.plan
	}
	p := *r.plan
	p.Retrieval.Queries = qs
	return &p
}
