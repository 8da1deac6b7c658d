package engine

import (
	"time"

	"github.com/nous-dev/nous/sdk"
)

// Interpretation is what the question was understood to ask: its
// constraints, grounded against the plan's sources, and what could not be
// applied. The report opens with it; a constraint that was dropped or not
// applied makes the run partial.
type Interpretation struct {
	// Now is the clock the dates were resolved against.
	Now time.Time `json:"now,omitzero"`
	// Dates is the question's time range, resolved; nil when the question
	// names none or no retrieval applies it. A retrieval's fixed or default
	// dates are its intent's own, not the question's.
	Dates *DateRange `json:"dates,omitempty"`
	// Constraints are the entity values the plan applies, in entity order,
	// grounded (Value is the source's canonical form, Phrase the question's).
	Constraints []Constraint `json:"constraints"`
	// Unapplied are constraints the plan keeps but a source of the plan
	// cannot apply (it has no such filter): the answer ignores them.
	Unapplied []Constraint `json:"unapplied,omitempty"`
	// Unknown are candidates no source of the plan knows; they were dropped.
	Unknown []Constraint `json:"unknown,omitempty"`
	// Missing are paths and authors the question names that no source of
	// the plan has: they stay filters, so the answer is about them (empty
	// but for history a path outlived) rather than about everything, and
	// the report says they are missing.
	Missing []Constraint `json:"missing,omitempty"`
	// Sources says, per source of the plan, what grounding learnt of it.
	Sources []SourceView `json:"sources,omitempty"`
	// Grounded reports whether the sources were asked at all.
	Grounded bool `json:"grounded"`
	// FollowUp is what the question took from the turn before it in its
	// session; nil outside a session or when it is not a follow-up.
	FollowUp *FollowUp `json:"follow_up,omitempty"`
}

// DateRange is a resolved dates entity: [Since, Until).
type DateRange struct {
	Phrases []string  `json:"phrases"` // as the question wrote them: "last week", "Q1 2024"
	Since   time.Time `json:"since,omitzero"`
	Until   time.Time `json:"until,omitzero"`
}

// Constraint is one entity value of the question.
type Constraint struct {
	Key    string `json:"key"`              // entity key: paths, authors, revisions, topics, projects, …
	Value  string `json:"value"`            // as applied: the source's canonical form when grounded
	Phrase string `json:"phrase,omitempty"` // as the question wrote it, when different
	Source string `json:"source,omitempty"` // the source that grounded it or cannot apply it
	Reason string `json:"reason,omitempty"` // why it is unapplied or unknown, or why an applied path is ambiguous
	Ground string `json:"ground,omitempty"` // of a missing constraint: the term kind no source has it as (sdk.TermPath, sdk.TermAuthor)
}

// SourceView is what grounding learnt of one source.
type SourceView struct {
	Name     string       `json:"name"`
	Filters  []string     `json:"filters,omitempty"` // filter keys it applies
	Coverage sdk.Coverage `json:"coverage,omitzero"` // what it holds
	Error    string       `json:"error,omitempty"`   // grounding failed: the source is unreachable or not configured
}
