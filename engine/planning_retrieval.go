package engine

import (
	"cmp"
	"slices"
	"strings"
)

// pendingPlan is a retrieval chosen for the plan, before numbering.
type pendingPlan struct {
	rt  *retrievalTemplate
	acc int // index of its intent in builder.acc
}

// retrievals builds the retrieval plans of the accepted intents whose when
// holds, sorts them by priority (highest first, ties in generation order),
// numbers them plan0, plan1, … and writes one query per plan.
func (b *builder) retrievals() {
	var pendBuf [16]pendingPlan
	pend := pendBuf[:0]
	filterCap := 0
	for ai := range b.acc {
		t := b.acc[ai].tpl
		for ri := range t.retrievals {
			rt := &t.retrievals[ri]
			if rt.rule.When != nil && !b.holds(rt.rule.When, "when", "retrieve", rt.rule.Name, t.intent.Name) {
				continue
			}
			pend = append(pend, pendingPlan{rt: rt, acc: ai})
			filterCap += len(rt.rule.Filters) + len(rt.fixed)
		}
	}
	slices.SortStableFunc(pend, func(x, y pendingPlan) int {
		return cmp.Compare(y.rt.rule.Priority, x.rt.rule.Priority)
	})

	m := len(pend)
	plans := make([]RetrievalPlan, m)
	sources := make([]string, m)
	filters := make(Filters, 0, filterCap)
	queryLen := 0
	for i, pd := range pend {
		r, a := pd.rt.rule, &b.acc[pd.acc]
		lo := len(filters)
		for k, key := range r.Filters {
			values := b.env.Entities[key]
			if len(values) == 0 {
				values = pd.rt.defaults[k]
			}
			if len(values) > 0 {
				filters = append(filters, Filter{Key: key, Values: values})
			}
		}
		for _, f := range pd.rt.fixed {
			// Say so when the question asked otherwise: nothing is overridden silently.
			if asked := b.env.Entities[f.Key]; len(asked) > 0 && !slices.Equal(asked, f.Values) {
				b.diag(SeverityInfo, "fixed_filter", "retrieve %q keeps %s:%s fixed; the question's %s:%s was not applied",
					r.Name, f.Key, strings.Join(f.Values, ","), f.Key, strings.Join(asked, ","))
			}
			filters = append(filters, f)
		}
		sources[i] = r.Source
		plans[i] = RetrievalPlan{
			ID:          b.p.planID(i),
			Description: pd.rt.description,
			Sources:     sources[i : i+1 : i+1],
			Kind:        r.Kind,
			Filters:     filters[lo:len(filters):len(filters)],
			Priority:    r.Priority,
			Intent:      a.Type,
			Limit:       r.Limit,
			Optional:    r.Optional,
			Rank:        r.Rank,
			RankIgnore:  r.RankIgnore,
			RankWeights: r.RankWeights,
		}
		if pd.rt.step >= 0 {
			plans[i].Hypothesis = b.p.stepID(a.base + pd.rt.step)
		}
		queryLen += querySize(&plans[i])
	}
	b.plan.Retrieval = Retrieval{Plans: plans, Queries: b.queries(plans, queryLen)}
	b.linkSteps(pend)
}

// queries writes every plan's query string into one buffer and slices it,
// so all of them cost one allocation.
func (b *builder) queries(plans []RetrievalPlan, size int) []Query {
	var sb strings.Builder
	sb.Grow(size)
	for i := range plans {
		writeQuery(&sb, &plans[i])
	}
	all := sb.String()
	queries := make([]Query, len(plans))
	at := 0
	for i := range plans {
		pl := &plans[i]
		end := at + querySize(pl)
		queries[i] = Query{ID: b.p.queryID(i), QueryString: all[at:end], Source: pl.Sources[0], Filters: pl.Filters}
		at = end
	}
	return queries
}

// writeQuery writes `{description} {filter}:{v1,v2} …`.
func writeQuery(sb *strings.Builder, pl *RetrievalPlan) {
	sb.WriteString(pl.Description)
	for _, f := range pl.Filters {
		sb.WriteByte(' ')
		sb.WriteString(f.Key)
		sb.WriteByte(':')
		for j, v := range f.Values {
			if j > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(v)
		}
	}
}

// querySize is the length of the query string writeQuery writes.
func querySize(pl *RetrievalPlan) int {
	n := len(pl.Description)
	for _, f := range pl.Filters {
		n += 2 + len(f.Key) + len(f.Values) - 1
		for _, v := range f.Values {
			n += len(v)
		}
	}
	return n
}

// linkSteps records on each step the plans it runs, in plan order. The
// lists share one backing array, cut by counting first.
func (b *builder) linkSteps(pend []pendingPlan) {
	steps := b.plan.Steps
	var offBuf [stackSteps + 1]int
	off := scratch(offBuf[:], len(steps)+1)
	step := func(pd pendingPlan) int { return b.acc[pd.acc].base + pd.rt.step }
	linked := 0
	for _, pd := range pend {
		if pd.rt.step >= 0 {
			off[step(pd)+1]++
			linked++
		}
	}
	if linked == 0 {
		return
	}
	for s := range steps {
		off[s+1] += off[s]
	}
	backing := make([]int, linked)
	for s := range steps {
		if lo, hi := off[s], off[s+1]; hi > lo {
			steps[s].Plans = backing[lo:lo:hi]
		}
	}
	for i, pd := range pend {
		if pd.rt.step >= 0 {
			s := &steps[step(pd)]
			s.Plans = append(s.Plans, i)
			if s.Action == ActionNone {
				s.Action = ActionRetrieve // retrieval plans bound to a step without an action
			}
		}
	}
}
