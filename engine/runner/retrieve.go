package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/tier"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/redact"
	"github.com/nous-dev/nous/sdk/timerange"
)

// datesFilter is the entity filter resolved into FetchRequest.Since/Until.
const datesFilter = "dates"

// retrieve runs st's retrieval plans, highest priority first, through the
// sources (a gap-search step runs its queries instead), then applies the
// mode's tier policy. A plan that fails is noted;
// the step fails only when every plan failed.
func (r *run) retrieve(ctx context.Context, st *stepState, in []sdk.Record, omitted tally) (output, error) {
	if len(st.search) > 0 {
		return r.gapSearch(ctx, st, in, omitted)
	}
	if why := r.unserved(st); why != "" {
		if r.starved(st) {
			return output{}, fmt.Errorf("not retrieved: %s", why)
		}
		return output{Records: in, Omitted: omitted, Text: "nothing to retrieve: " + why}, nil
	}
	var (
		errs []error
		out  output
	)
	got := r.newIntake(in, omitted)
	plans := make([]int, 0, len(st.plans))
	for _, pi := range st.plans {
		if pi < 0 || pi >= len(r.plan.Retrieval.Plans) {
			errs = append(errs, fmt.Errorf("retrieval plan index %d out of range", pi))
			continue
		}
		plans = append(plans, pi)
	}
	slices.SortStableFunc(plans, func(a, b int) int { return r.plan.Retrieval.Plans[b].Priority - r.plan.Retrieval.Plans[a].Priority })
	for _, pi := range plans {
		p := r.plan.Retrieval.Plans[pi]
		q := queryRun{nearest: st.nearest}
		req, asked, err := r.fetchRequest(st, p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p.ID, err))
			q.fail(err)
			r.noteQuery(pi, q)
			continue
		}
		for _, src := range p.Sources {
			var (
				n   int
				err error
			)
			seen := -1 // a ranked retrieval's records before ranking
			var rk ranking
			switch {
			case p.Rank:
				rk, err = r.fetchRanked(ctx, src, req, p, got.add)
				n, seen = rk.kept, rk.seen
				out.rank(rk)
			case st.nearest != "":
				n, err = r.fetchNearest(ctx, src, req, st.nearest, asked, got.add)
			default:
				n, err = r.fetchFrom(ctx, src, req, got.add)
			}
			q.add(src, n, err)
			if !out.answered(src, max(n, seen), err) {
				errs = append(errs, fmt.Errorf("%s on source %q: %w", p.ID, src, err))
				continue
			}
			note := fmt.Sprintf("%s: %d record(s) from %s for %q", p.ID, n, src, req.Query)
			if seen >= 0 {
				note = rankedNote(p.ID, src, r.plan.Query, rk)
			}
			out.Notes = append(out.Notes, note+r.cutShort(err))
		}
		r.noteQuery(pi, q)
	}
	return r.keep(got, errs, out)
}

// fetchNearest makes a nearest request on src and passes on only the
// record nearest to the asked period (see nearestOf), holding no more
// than a batch of the others while it looks.
func (r *run) fetchNearest(ctx context.Context, src string, req sdk.FetchRequest, dir string, asked timerange.Range, emit func(sdk.Record)) (int, error) {
	var near []sdk.Record
	_, err := r.fetchFrom(ctx, src, req, func(rec sdk.Record) {
		near = append(near, rec)
		if len(near) >= intakeBatch {
			near = nearestOf(near, dir, asked)
		}
	})
	near = nearestOf(near, dir, asked)
	for _, rec := range near {
		emit(rec)
	}
	return len(near), err
}

// gapSearch runs the analyst's queries for missing evidence on every
// source of the plan.
func (r *run) gapSearch(ctx context.Context, st *stepState, in []sdk.Record, omitted tally) (output, error) {
	var (
		errs []error
		out  output
	)
	got := r.newIntake(in, omitted)
	rankedDone := map[string]bool{}
	for _, q := range st.search {
		for _, src := range st.sources {
			req, ranked, err := r.searchRequest(st, src, q)
			if err != nil {
				errs = append(errs, fmt.Errorf("search %q on source %q: %w", q, src, err))
				continue
			}
			var n int
			if ranked != nil {
				// A ranked source is searched by relevance to the
				// question, whatever the query: once.
				if rankedDone[src] {
					continue
				}
				rankedDone[src] = true
				var rk ranking
				rk, err = r.fetchRanked(ctx, src, req, *ranked, got.add)
				n = rk.kept
				out.rank(rk)
			} else {
				n, err = r.fetchFrom(ctx, src, req, got.add)
			}
			if !out.answered(src, n, err) {
				errs = append(errs, fmt.Errorf("search %q on source %q: %w", q, src, err))
				continue
			}
			out.Notes = append(out.Notes, fmt.Sprintf("search: %d record(s) from %s for %q%s", n, src, q, r.cutShort(err)))
		}
	}
	return r.keep(got, errs, out)
}

// searchRequest is a gap search's request on src: the question's own
// constraints (dates and filters of the plan's first retrieval on src), so
// looking for missing evidence never widens the question, with q as text.
// ranked is that retrieval when it is ranked.
func (r *run) searchRequest(st *stepState, src, q string) (req sdk.FetchRequest, ranked *engine.RetrievalPlan, err error) {
	for _, p := range r.plan.Retrieval.Plans {
		if slices.Contains(p.Sources, src) {
			req, _, err := r.fetchRequest(st, p)
			req.Query = q
			if p.Rank {
				ranked = &p
			}
			return req, ranked, err
		}
	}
	return sdk.FetchRequest{Query: q}, nil, nil
}

// fetchFrom makes one source call within the run's deadline, passing
// what it emits to emit (named after src when a record names no source),
// and says how many records it passed.
func (r *run) fetchFrom(ctx context.Context, src string, req sdk.FetchRequest, emit func(sdk.Record)) (int, error) {
	n := 0
	ctx, cancel := r.e.opts.Time.WithDeadline(ctx, r.deadline)
	defer cancel()
	err := r.e.sources.Fetch(ctx, src, r.withStats(src, req), func(rec sdk.Record) error {
		// Secrets masked and one-line fields kept on one line before
		// any agent, report or log sees the record.
		rec = redact.OneLineFields(r.e.opts.Redactor.Record(rec))
		if rec.Source == "" {
			rec.Source = src
		}
		emit(rec)
		n++
		return nil
	})
	return n, err
}

// answered notes how a source call that delivered n records and ended
// with err went: answered, failed, or both (a stream cut short after some
// records answered in part: its records are used and its failure says how
// many arrived). It reports whether the source answered at all.
func (o *output) answered(src string, n int, err error) bool {
	if err != nil {
		o.Failed = append(o.Failed, sourceFailure{Source: src, Err: err, Received: n})
	}
	if err != nil && n == 0 {
		return false
	}
	o.Answered = append(o.Answered, src)
	return true
}

// cutShort is a note's tail for a stream that ended in err, secrets masked.
func (r *run) cutShort(err error) string {
	if err == nil {
		return ""
	}
	return "; the stream ended early: " + r.redactErr(err).Error()
}

// keep finishes a retrieval: the step fails when every source call
// failed, else it holds what the tier policy kept (the selection and the
// counts of the rest) and notes the failures.
func (r *run) keep(got *intake, errs []error, out output) (output, error) {
	if len(errs) > 0 && got.fetched == 0 && len(out.Notes) == 0 {
		return out, errors.Join(errs...)
	}
	for _, err := range errs {
		out.Notes = append(out.Notes, "partial failure: "+r.redactErr(err).Error())
	}
	if err := got.flush(); err != nil {
		return out, err
	}
	if got.fetched > 0 {
		if err := tier.CheckEmpty(r.plan.Policy.Mode, got.kept, got.dropped); err != nil {
			return out, err
		}
	}
	out.Dropped, out.Flagged = got.dropped, got.flagged
	out.Records, out.Omitted = got.held.done()
	out.Text = fmt.Sprintf("retrieved %d record(s), kept %d", got.fetched, got.kept)
	if n := out.Omitted.count(); n > 0 {
		out.Text += fmt.Sprintf(", holding the newest %d (loop.max_records) and counting %d more", len(out.Records), n)
	}
	return out, nil
}

// fetchRequest builds the request of plan p as refined on st, and says
// which period the plan asks for (a nearest refinement looks around it).
func (r *run) fetchRequest(st *stepState, p engine.RetrievalPlan) (sdk.FetchRequest, timerange.Range, error) {
	filters := st.filters(p.Filters)
	req := sdk.FetchRequest{Query: r.queryString(st, p, filters), Kind: p.Kind, Limit: p.Limit}
	if st.limit > 0 {
		req.Limit = st.limit
	}
	if p.Rank {
		req.Limit = 0 // the limit keeps the most relevant: the source returns them all
	}
	asked, _, err := r.period(filters)
	if err != nil {
		return req, asked, err
	}
	req.Since, req.Until = asked.Since, asked.Until
	for _, f := range filters {
		if f.Key == datesFilter {
			continue
		}
		if req.Filters == nil {
			req.Filters = map[string][]string{}
		}
		req.Filters[f.Key] = slices.Clone(f.Values)
	}
	if st.nearest != "" {
		req = around(req, st.nearest)
	}
	return req, asked, nil
}

// queryString is the plan's query string, rebuilt in the planner's format
// ("{description} {filter}:{v1,v2} …") when a refinement changed the filters.
func (r *run) queryString(st *stepState, p engine.RetrievalPlan, filters engine.Filters) string {
	if !st.refined() {
		for _, q := range r.plan.Retrieval.Queries {
			if q.ID == p.ID+"_query" {
				return q.QueryString
			}
		}
	}
	var b strings.Builder
	b.WriteString(p.Description)
	for _, f := range filters {
		if len(f.Values) == 0 {
			continue
		}
		b.WriteString(" " + f.Key + ":" + strings.Join(f.Values, ","))
	}
	return b.String()
}

// dedupe keeps the first record of each source and ID.
func dedupe(recs []sdk.Record) []sdk.Record {
	seen := make(map[string]bool, len(recs))
	out := recs[:0]
	for _, rec := range recs {
		if k := recordKey(rec); !seen[k] {
			seen[k] = true
			out = append(out, rec)
		}
	}
	return out
}

// recordKey identifies a record across sources: its source and ID.
func recordKey(rec sdk.Record) string { return rec.Source + "\x00" + rec.ID }

// planSources lists the sources of the plan's retrievals, in plan order.
func (r *run) planSources() []string {
	var out []string
	for _, p := range r.plan.Retrieval.Plans {
		for _, s := range p.Sources {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}
