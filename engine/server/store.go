package server

import (
	"container/list"
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Statuses of a run that has not ended: waiting in the queue for a slot,
// then running. An ended run has its result's status (success, partial,
// failed, cancelled, needs_clarification).
const (
	StatusQueued  = "queued"
	StatusRunning = "running"
)

// Run is one question asked of the server, as GET /v1/runs shows it.
type Run struct {
	ID        string     `json:"id"`
	Query     string     `json:"query"`
	Mode      string     `json:"mode,omitempty"`
	Status    string     `json:"status"`
	StartedAt time.Time  `json:"started_at"` // when it was accepted, queued or not
	EndedAt   *time.Time `json:"ended_at,omitempty"`
	Error     string     `json:"error,omitempty"`
}

// RunDetail is a run with what it produced, GET /v1/runs/{id}: the plan,
// result, history and trace of `nous ask --format json`.
type RunDetail struct {
	Run
	Output json.RawMessage `json:"output,omitempty"`
}

// entry is a stored run: its summary, its output once it ended, and the
// cancel of a queued or running one.
type entry struct {
	run    Run
	output []byte
	cancel context.CancelFunc
	elem   *list.Element // in store.ended, once it ended
}

// size is what an ended entry counts against the store's byte bound.
func (e *entry) size() int64 {
	return int64(len(e.output) + len(e.run.Query) + len(e.run.Error) + entryOverhead)
}

// entryOverhead approximates an entry's fixed cost: its structs, ID and
// map slot.
const entryOverhead = 512

// store keeps the queued and running runs and the most recent ended ones, bounded in
// count and bytes: the oldest ended runs go first.
type store struct {
	mu       sync.Mutex
	byID     map[string]*entry
	ended    *list.List // oldest first
	bytes    int64
	maxRuns  int
	maxBytes int64
}

func newStore(maxRuns int, maxBytes int64) *store {
	return &store{byID: map[string]*entry{}, ended: list.New(), maxRuns: maxRuns, maxBytes: maxBytes}
}

// start records a queued or running run that cancel ends.
func (s *store) start(run Run, cancel context.CancelFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID[run.ID] = &entry{run: run, cancel: cancel}
}

// running marks the queued run id as running: it has its slot.
func (s *store) running(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.byID[id]; e != nil && e.cancel != nil {
		e.run.Status = StatusRunning
	}
}

// end records how run ended and what it printed, then evicts what the
// bounds no longer hold.
func (s *store) end(run Run, output []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.byID[run.ID]
	if e == nil {
		e = &entry{}
		s.byID[run.ID] = e
	}
	e.run, e.output, e.cancel = run, output, nil
	e.elem = s.ended.PushBack(e)
	s.bytes += e.size()
	for s.ended.Len() > s.maxRuns || (s.bytes > s.maxBytes && s.ended.Len() > 1) {
		old := s.ended.Remove(s.ended.Front()).(*entry)
		s.bytes -= old.size()
		delete(s.byID, old.run.ID)
	}
}

// get returns the run id and its output, if it is known.
func (s *store) get(id string) (RunDetail, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return RunDetail{}, false
	}
	return RunDetail{Run: e.run, Output: e.output}, true
}

// cancel ends the queued or running run id; ok is false when there is no
// such run, active is false when it already ended.
func (s *store) cancel(id string) (run Run, ok, active bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return Run{}, false, false
	}
	if e.cancel == nil {
		return e.run, true, false
	}
	e.cancel()
	return e.run, true, true
}

// recent lists up to n runs, the queued and running ones first, then the ended ones
// newest first.
func (s *store) recent(n int) []Run {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Run{}
	for _, e := range s.byID {
		if e.cancel != nil {
			out = append(out, e.run)
		}
	}
	sortByStart(out)
	for el := s.ended.Back(); el != nil && len(out) < n; el = el.Prev() {
		out = append(out, el.Value.(*entry).run)
	}
	return out[:min(n, len(out))]
}

// size is how many runs the store holds and the bytes of the ended ones.
func (s *store) size() (int, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID), s.bytes
}
