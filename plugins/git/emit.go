package git

import (
	"context"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/nous-dev/nous/sdk"
)

// emitter turns the walk's matching commits into records, computing
// stats when the query asks for them, and counts them against the limit.
type emitter struct {
	s       *Source
	ctx     context.Context
	q       query
	emit    func(sdk.Record) error
	emitted int
	abbrev  *abbrev
	shallow map[plumbing.Hash]bool
}

func (s *Source) newEmitter(ctx context.Context, q query, shallow map[plumbing.Hash]bool, emit func(sdk.Record) error) *emitter {
	return &emitter{s: s, ctx: ctx, q: q, emit: emit, shallow: shallow, abbrev: newAbbrev(s.gitDir, &s.packs)}
}

// add emits c and reports whether the limit is reached.
func (e *emitter) add(c *object.Commit, ref string) (bool, error) {
	rec := e.s.record(c, ref, e.abbrev.short(c.Hash))
	if e.q.stats {
		if err := e.s.addStats(e.ctx, &rec, c, e.shallow[c.Hash]); err != nil {
			return false, err
		}
	}
	if err := e.emit(rec); err != nil {
		return false, err
	}
	e.emitted++
	return e.q.limit > 0 && e.emitted >= e.q.limit, nil
}

// flush emits what is still pending.
func (e *emitter) flush() error { return nil }

// close releases what the emitter holds.
func (e *emitter) close() {}
