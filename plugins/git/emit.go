package git

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/nous-dev/nous/sdk"
)

// numstatBatch bounds the commits sent to git at once: the first batch is
// small so the first records come quickly, later ones larger. 256 lines
// of input stay far below a pipe's 64 KiB buffer.
const (
	firstNumstatBatch = 8
	maxNumstatBatch   = 256
)

// emitter turns the walk's matching commits into records, computing
// stats when the query asks for them, and counts them against the limit.
// With the git executable it batches commits for one `git diff-tree`;
// without it, or when git fails, it computes stats with go-git.
type emitter struct {
	s       *call
	ctx     context.Context
	q       query
	emit    func(sdk.Record) error
	emitted int
	abbrev  *abbrev
	shallow map[plumbing.Hash]bool

	git     *numstat // nil until the first batch, or when not used
	noGit   bool     // git is not installed or failed: use go-git
	pending []pendingRecord
	batch   int
}

type pendingRecord struct {
	rec sdk.Record
	c   *object.Commit
}

func (s *call) newEmitter(ctx context.Context, q query, shallow map[plumbing.Hash]bool, emit func(sdk.Record) error) *emitter {
	return &emitter{s: s, ctx: ctx, q: q, emit: emit, shallow: shallow, abbrev: newAbbrev(s.names),
		noGit: s.gitBin == "" || s.gitDir == nil, batch: firstNumstatBatch}
}

// add emits c (or queues it for a stats batch) and reports whether the
// limit is reached.
func (e *emitter) add(c *object.Commit, ref string) (bool, error) {
	rec := e.s.record(c, ref, e.abbrev.short(c.Hash))
	e.emitted++
	done := e.q.limit > 0 && e.emitted >= e.q.limit
	if !e.q.stats {
		return done, e.emit(rec)
	}
	e.pending = append(e.pending, pendingRecord{rec: rec, c: c})
	if done || len(e.pending) >= e.batch {
		return done, e.flush()
	}
	return false, nil
}

// flush sets the stats of the queued records, from the cache or computed
// for the commits it lacks, and emits them.
func (e *emitter) flush() error {
	if len(e.pending) == 0 {
		return nil
	}
	pending := e.pending
	e.pending = e.pending[:0]
	e.batch = min(2*e.batch, maxNumstatBatch)
	var todo []pendingRecord // commits whose stats are not cached
	for _, p := range pending {
		if e.isMerge(p.c) {
			continue
		}
		if fs, ok := e.s.stats.get(e.key(p.c)); ok {
			setStats(&p.rec, fs)
			continue
		}
		todo = append(todo, p)
	}
	if len(todo) > 0 && !e.noGit && e.gitStats(todo) != nil {
		// git is unusable here (not a safe directory, killed, an odd
		// repository): go-git computes the same figures, slower.
		e.noGit = true
		e.close()
	}
	for i := range pending {
		p := &pending[i]
		// go-git computes each commit's stats just before its record goes
		// out: a commit it cannot read (a blob missing from a partial
		// clone) ends the fetch after the records before it, not before.
		if e.noGit && !e.isMerge(p.c) && p.rec.Fields["files"] == nil {
			fs, err := commitStats(e.ctx, e.s.repo.Storer, p.c, e.shallow[p.c.Hash])
			if err != nil {
				return fmt.Errorf("git: computing stats of %s: %w", p.c.Hash, err)
			}
			e.s.stats.put(e.key(p.c), fs)
			setStats(&p.rec, fs)
		}
		if err := e.emit(p.rec); err != nil {
			return err
		}
	}
	return nil
}

// gitStats sets and caches the stats of todo, none a merge, with the git
// executable.
func (e *emitter) gitStats(todo []pendingRecord) error {
	if e.git == nil {
		g, err := startNumstat(e.ctx, e.s.gitBin, e.s.gitDir.Root())
		if err != nil {
			return err
		}
		e.git = g
	}
	items := make([]numstatItem, len(todo))
	for i, p := range todo {
		key := e.key(p.c)
		items[i] = numstatItem{sha: key.commit.String()}
		if !key.parent.IsZero() {
			items[i].parent = key.parent.String()
		}
	}
	stats, err := e.git.count(items)
	if err != nil {
		return err
	}
	for i, p := range todo {
		fs := sortStats(stats[i])
		e.s.stats.put(e.key(p.c), fs)
		setStats(&p.rec, fs)
	}
	return nil
}

// key is what c's stats are computed against: its first parent, or none
// for a root commit or a shallow clone's boundary.
func (e *emitter) key(c *object.Commit) statsKey {
	if len(c.ParentHashes) == 0 || e.shallow[c.Hash] {
		return statsKey{commit: c.Hash}
	}
	return statsKey{commit: c.Hash, parent: c.ParentHashes[0]}
}

// isMerge reports whether c has several parents. Merges carry no stats,
// as in `git log --numstat`: what they bring in is counted in the commits
// they merge, and a range's totals count each change once.
// A shallow clone's boundary has no parents, as in git.
func (e *emitter) isMerge(c *object.Commit) bool {
	return len(c.ParentHashes) > 1 && !e.shallow[c.Hash]
}

// close ends the git process, if one runs.
func (e *emitter) close() {
	if e.git != nil {
		e.git.close()
		e.git = nil
	}
}
