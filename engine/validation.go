package engine

import (
	"slices"

	"github.com/nous-dev/nous/rules"
)

// PlanValidation is what ValidatePlan found before anything ran, and how it
// refined the plan.
type PlanValidation struct {
	Findings    []PlanFinding    `json:"findings,omitempty"`
	Refinements []PlanRefinement `json:"refinements,omitempty"`
	// Caveats are what the report must say because of the refinements: a
	// retrieval dropped, a step left with nothing to run.
	Caveats []string `json:"caveats,omitempty"`
	// Unserved says, by step ID, why a retrieve step has no retrieval left
	// to run; the run completes it as partial with that reason.
	Unserved map[string]string `json:"unserved,omitempty"`
}

// PlanFinding is one problem (or fact worth knowing) about the plan.
type PlanFinding struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`             // stable: source_unavailable, kind_not_served, step_unserved, …
	Target   string   `json:"target,omitempty"` // the step or retrieval plan it is about
	Message  string   `json:"message"`
}

// PlanRefinement is a change ValidatePlan made to the plan, in the loop's
// refinement vocabulary: REPLACE rebinds a retrieval to another source,
// REMOVE drops a retrieval no source can serve.
type PlanRefinement struct {
	Op            string `json:"op"`     // ADD | MODIFY | REMOVE | REPLACE
	Target        string `json:"target"` // the retrieval plan's ID
	Step          string `json:"step,omitempty"`
	From          string `json:"from,omitempty"` // REPLACE: the source replaced
	To            string `json:"to,omitempty"`   // REPLACE: the source it now runs on
	Justification string `json:"justification"`
	// Plan is, for REMOVE, the retrieval removed, as it was.
	Plan *RetrievalPlan `json:"plan,omitempty"`
}

// Refinement operations, before the first pass (ValidatePlan) and in the
// loop's refinements alike.
const (
	OpAdd     = "ADD"
	OpModify  = "MODIFY"
	OpRemove  = "REMOVE"
	OpReplace = "REPLACE"
)

// SourceFacts is what plan validation knows of one declared source.
type SourceFacts struct {
	Name     string
	Problem  string   // why it cannot serve ("not configured: set …", its plugin failed); "" when it can
	Kinds    []string // record kinds it is known to serve
	Complete bool     // Kinds is every kind it serves (its plugin said so)
	For      string   // the kind its rules declare it for (its kind); "" for any
	Priority int      // preference when a retrieval is rebound to it
}

// serves reports whether the source can answer a retrieval of kind: it has
// no problem, and serves that kind or may (its kinds are not all known).
func (s *SourceFacts) serves(kind string) bool {
	return s.Problem == "" && (kind == "" || !s.Complete || slices.Contains(s.Kinds, kind))
}

// knownToServe reports whether a retrieval of kind can be rebound to the
// source: it has no problem, is known to serve that kind and is not
// declared for another (a documentation source whose plugin could also read
// issues is still no issue source).
func (s *SourceFacts) knownToServe(kind string) bool {
	return s.Problem == "" && kind != "" && slices.Contains(s.Kinds, kind) && (s.For == "" || s.For == kind)
}

// SourceFactsFromRules describes rs's sources from the rules alone, before
// any plugin runs: a source without a plugin is not configured, and one
// whose rules name a kind is known to serve that kind (a started plugin
// tells the rest: see Describe).
func SourceFactsFromRules(rs *rules.Ruleset) []SourceFacts {
	out := make([]SourceFacts, len(rs.Sources))
	for i, s := range rs.Sources {
		out[i] = SourceFacts{Name: s.Name, Priority: s.Priority}
		if !s.Configured() {
			out[i].Problem = "not configured"
			if s.Setup != "" {
				out[i].Problem += ": " + s.Setup
			}
		}
		if s.Kind != "" {
			out[i].Kinds, out[i].For = []string{s.Kind}, s.Kind
		}
	}
	return out
}
