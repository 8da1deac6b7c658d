// Package trace records a run's reasoning trace: every decision as an entry
// with its stage, thought, action, evidence, outcome, commitments,
// attachments and corrections, stamped with the interaction (one question)
// it belongs to. A Trace is safe for concurrent use.
package trace

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Stage is the phase of the run an entry belongs to.
type Stage string

// Stages of a run.
const (
	Planning     Stage = "planning"
	Execution    Stage = "execution"
	Verification Stage = "verification"
	Correction   Stage = "correction"
	Finalization Stage = "finalization"
)

// Outcome is how an entry's action ended.
type Outcome string

// Outcomes.
const (
	Pending Outcome = "pending"
	Success Outcome = "success"
	Partial Outcome = "partial"
	Failed  Outcome = "failed"
	Skipped Outcome = "skipped"
)

// Entry is one recorded decision.
type Entry struct {
	ID          string           `json:"entry_id"`
	Interaction string           `json:"interaction_id,omitempty"` // the question (one `nous ask`) the entry belongs to
	Stage       Stage            `json:"stage"`
	Thought     string           `json:"thought"`
	Action      string           `json:"action,omitempty"`
	Parameters  Params           `json:"parameters,omitempty"`
	Evidence    []string         `json:"evidence,omitempty"`
	Outcome     Outcome          `json:"outcome"`
	Error       string           `json:"error,omitempty"`
	Commitments []string         `json:"commitments,omitempty"` // promises a later entry must fulfil
	Fulfills    []string         `json:"fulfills,omitempty"`    // commitments this entry fulfils when it succeeds
	Attachments []map[string]any `json:"attachments,omitempty"`
	Corrections []string         `json:"corrections,omitempty"` // guidance from a critic or a failed check
	Timestamp   time.Time        `json:"timestamp"`
}

// Update changes an entry after its action ran. Zero fields are left alone;
// slices are appended.
type Update struct {
	Outcome     Outcome
	Error       string
	Evidence    []string
	Fulfills    []string
	Attachments []map[string]any
	Corrections []string
	Parameters  Params // merged into the entry's parameters: a key it has takes the new value
}

// Trace is an append-only list of entries.
type Trace struct {
	mu          sync.Mutex
	clock       func() time.Time
	interaction string
	off         bool // keep only the commitment ledger (see Disabled)
	entries     []Entry
}

// Option configures a new trace.
type Option func(*Trace)

// Interaction stamps every entry with the interaction ID id.
func Interaction(id string) Option { return func(t *Trace) { t.interaction = id } }

// Disabled records no entries (reasoning_trace.enabled = false): Entries,
// Close, Summary, Attachments and Corrections are empty, but the trace
// still keeps the ledger of commitments, fulfilments and outcomes that
// PendingCommitments needs, since a run's status depends on it.
func Disabled() Option { return func(t *Trace) { t.off = true } }

// New returns an empty trace stamped by clock (time.Now when nil).
func New(clock func() time.Time, opts ...Option) *Trace {
	if clock == nil {
		clock = time.Now
	}
	t := &Trace{clock: clock}
	for _, o := range opts {
		o(t)
	}
	return t
}

// Enabled reports whether the trace records entries.
func (t *Trace) Enabled() bool { return !t.off }

// Grow makes room for n more entries, so adding them does not copy the
// ones before.
func (t *Trace) Grow(n int) {
	t.mu.Lock()
	t.entries = slices.Grow(t.entries, n)
	t.mu.Unlock()
}

// Add records e and returns its entry ID (e1, e2, …). An empty outcome is pending.
func (t *Trace) Add(e Entry) string {
	if e.Outcome == "" {
		e.Outcome = Pending
	}
	if t.off {
		e = Entry{Outcome: e.Outcome, Commitments: e.Commitments, Fulfills: e.Fulfills}
	} else {
		e.Interaction, e.Timestamp = t.interaction, t.clock()
	}
	t.mu.Lock()
	e.ID = "e" + strconv.Itoa(len(t.entries)+1)
	if len(t.entries) == cap(t.entries) { // double: entries are large, so copy them rarely
		t.entries = slices.Grow(t.entries, max(len(t.entries), 8))
	}
	t.entries = append(t.entries, e)
	t.mu.Unlock()
	return e.ID
}

// Update applies u to the entry id.
func (t *Trace) Update(id string, u Update) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	i, err := t.index(id)
	if err != nil {
		return err
	}
	e := &t.entries[i]
	if u.Outcome != "" {
		e.Outcome = u.Outcome
	}
	e.Fulfills = append(e.Fulfills, u.Fulfills...)
	if t.off {
		return nil
	}
	if u.Error != "" {
		e.Error = u.Error
	}
	if e.Evidence == nil {
		e.Evidence = slices.Clip(u.Evidence) // no copy; capped, so a later append copies
	} else {
		e.Evidence = append(e.Evidence, u.Evidence...)
	}
	e.Attachments = append(e.Attachments, u.Attachments...)
	e.Corrections = append(e.Corrections, u.Corrections...)
	if len(u.Parameters) > 0 {
		e.Parameters = e.Parameters.merge(u.Parameters)
	}
	return nil
}

func (t *Trace) index(id string) (int, error) {
	if len(id) < 2 || id[0] != 'e' {
		return 0, fmt.Errorf("trace: no entry %q", id)
	}
	n, err := strconv.Atoi(id[1:])
	if err != nil || n < 1 || n > len(t.entries) {
		return 0, fmt.Errorf("trace: no entry %q", id)
	}
	return n - 1, nil
}

// Entries returns a copy of the entries in the order they were added.
func (t *Trace) Entries() []Entry {
	if t.off {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.entries)
}

// Close ends the trace and returns its entries in the order they were
// added. They are handed over, not copied: the trace no longer holds them
// and is empty afterwards.
func (t *Trace) Close() []Entry {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.entries
	t.entries = nil
	if t.off {
		return nil
	}
	return out
}

// Len returns the number of entries recorded (0 when disabled).
func (t *Trace) Len() int {
	if t.off {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.entries)
}
