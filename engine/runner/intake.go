package runner

import (
	"github.com/nous-dev/nous/engine/tier"
	"github.com/nous-dev/nous/sdk"
)

// intakeBatch is how many fetched records wait for the tier policy at a
// time: what a retrieval holds beyond its selection.
const intakeBatch = 1024

// intake takes a retrieval's records as the sources stream them: the
// mode's tier policy is applied a batch at a time and what it keeps goes
// into a bounded selection, so a retrieval never holds everything it
// fetched.
type intake struct {
	r       *run
	held    *held
	batch   []sdk.Record
	fetched int // records the sources sent
	kept    int // records the policy kept
	dropped int
	flagged int
	err     error // the policy's first error; later records are only counted
}

// newIntake starts from the step's inputs: the records held and the
// counts of those left out.
func (r *run) newIntake(in []sdk.Record, omitted tally) *intake {
	h := newHeld(r.loop.MaxRecords)
	h.merge(in, omitted)
	return &intake{r: r, held: h}
}

// add takes one fetched record.
func (g *intake) add(rec sdk.Record) {
	g.fetched++
	g.batch = append(g.batch, rec)
	if len(g.batch) >= intakeBatch {
		g.err = g.flush()
	}
}

// flush applies the policy to the waiting batch.
func (g *intake) flush() error {
	defer func() {
		clear(g.batch)
		g.batch = g.batch[:0]
	}()
	if g.err != nil || len(g.batch) == 0 {
		return g.err
	}
	res, err := tier.Filter(g.r.plan.Policy, g.r.plan.Query, g.batch)
	if err != nil {
		return err
	}
	g.kept += len(res.Kept)
	g.dropped += res.Dropped
	g.flagged += res.Flagged
	for _, rec := range res.Kept {
		g.held.add(rec)
	}
	return nil
}
