package rules

import (
	"cmp"
	"time"
)

// Loop limits used where the loop block leaves them unset.
const (
	DefaultMaxPasses     = 3
	DefaultTTL           = 60 * time.Second
	DefaultRefinePerStep = 3
	DefaultRefineTotal   = 10
	DefaultWorkers       = 4
	// DefaultMaxRecords is how many records a step holds and shows the
	// agents; the rest are counted, not held.
	DefaultMaxRecords = 1000
	// DefaultClarifyMargin is the confidence margin within which two
	// conflicting intents are a toss-up the user settles.
	DefaultClarifyMargin = 0.05
)

// resolveDefaults sets, once for every ruleset, the defaults a run would
// otherwise have to infer: every loop limit the rules leave unset.
func (r *Ruleset) resolveDefaults() {
	l := &r.Loop
	orDefault(&l.MaxPasses, DefaultMaxPasses)
	orDefault(&l.TTL, DefaultTTL)
	orDefault(&l.RefinePerStep, DefaultRefinePerStep)
	orDefault(&l.RefineTotal, DefaultRefineTotal)
	orDefault(&l.Workers, DefaultWorkers)
	orDefault(&l.MaxRecords, DefaultMaxRecords)
}

// orDefault sets *v to d when it is unset (not positive).
func orDefault[T int | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// Runs returns what the hypothesis runs with the defaults applied: its
// action; its agent role, the writer for an agent step that names none
// (decoding already made an agent named after a role that role); and the
// agent called for that role, the named one else the role's own. The
// hypothesis keeps what was written, which lint and the plan show.
func (h *Hypothesis) Runs() (action, role, agent string) {
	role = h.Role
	if role == "" && (h.Action == "agent" || h.Agent != "") {
		role = "writer"
	}
	if role != "" {
		agent = cmp.Or(h.Agent, role)
	}
	return h.Action, role, agent
}
