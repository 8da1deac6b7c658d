package runner

import (
	"fmt"
	"maps"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/timerange"
)

// A nearest refinement keeps the question's filters and looks around its
// empty period: "before" asks each source for its most recent record
// before the period (Until = the asked Since, no Since, limit 1); "after"
// for its oldest record after it (Since = the asked Until, no Until). Sources
// return newest first and cannot be asked for the oldest, so "after" reads
// what the source returns within the plan's limit and keeps the oldest.
// Either way the records found are not the answer to the asked period:
// they carry FieldOutside and the step's result says so.
const (
	nearestBefore = engine.NearestBefore
	nearestAfter  = engine.NearestAfter
)

// period resolves the dates filter among filters into the range it asks
// for; ok is false when there is none.
func (r *run) period(filters engine.Filters) (rg timerange.Range, ok bool, err error) {
	for _, f := range filters {
		if f.Key != datesFilter {
			continue
		}
		rg, err = timerange.Resolve(f.Values, r.e.opts.Clock())
		if err != nil {
			return rg, false, fmt.Errorf("dates filter: %w", err)
		}
		return rg, !rg.Since.IsZero() || !rg.Until.IsZero(), nil
	}
	return rg, false, nil
}

// askedPeriod is the period st's retrieval asks for (that of its first
// plan with one), whatever nearest refinement it runs with.
func (r *run) askedPeriod(st *stepState) (timerange.Range, bool) {
	if st.action() != "retrieve" {
		return timerange.Range{}, false
	}
	for _, pi := range st.plans {
		if pi < 0 || pi >= len(r.plan.Retrieval.Plans) {
			continue
		}
		if rg, ok, err := r.period(st.filters(r.plan.Retrieval.Plans[pi].Filters)); err == nil && ok {
			return rg, true
		}
	}
	return timerange.Range{}, false
}

// lookAround says why a nearest refinement in direction dir cannot apply
// to st, or "" when it can: the step must ask for a period bounded on
// that side, and must not have looked already.
func (r *run) lookAround(st *stepState, dir string) string {
	if st.nearest != "" {
		return fmt.Sprintf("nothing %s the period either", dir)
	}
	rg, ok := r.askedPeriod(st)
	switch {
	case !ok:
		return "no period to look around"
	case dir == nearestBefore && rg.Since.IsZero():
		return "the period has no start to look before"
	case dir == nearestAfter && rg.Until.IsZero():
		return "the period has no end to look after"
	}
	return ""
}

// around turns req, which asks for the period, into the nearest request.
func around(req sdk.FetchRequest, dir string) sdk.FetchRequest {
	switch dir {
	case nearestBefore:
		req.Since, req.Until, req.Limit = time.Time{}, req.Since, 1
	case nearestAfter:
		req.Since, req.Until = req.Until, time.Time{}
	}
	return req
}

// nearestOf keeps, of the records one source returned for a nearest
// request on period rg, the one closest to the period, marked as outside
// it. A record inside the period or on the wrong side (a source that did
// not apply the bounds) is not kept; undated records are kept only when
// nothing is dated (a source without dates cannot say which is nearest,
// and then the first it returned is the nearest it knows).
func nearestOf(recs []sdk.Record, dir string, rg timerange.Range) []sdk.Record {
	best := -1
	for i, rec := range recs {
		t := rec.Time
		switch {
		case t.IsZero():
			continue
		case dir == nearestBefore && (!t.Before(rg.Since) || best >= 0 && !t.After(recs[best].Time)):
			continue
		case dir == nearestAfter && (t.Before(rg.Until) || best >= 0 && !t.Before(recs[best].Time)):
			continue
		}
		best = i
	}
	if best < 0 {
		for i, rec := range recs {
			if rec.Time.IsZero() {
				best = i
				break
			}
		}
	}
	if best < 0 {
		return nil
	}
	rec := recs[best]
	rec.Fields = maps.Clone(rec.Fields)
	if rec.Fields == nil {
		rec.Fields = map[string]any{}
	}
	rec.Fields[FieldOutside] = outsideValue(dir)
	return []sdk.Record{rec}
}

// outsideValue is the Outside marker of a nearest direction.
func outsideValue(dir string) string {
	switch dir {
	case nearestBefore:
		return OutsideBefore
	case nearestAfter:
		return OutsideAfter
	}
	return ""
}
