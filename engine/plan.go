package engine

// Plan is the planner's output. Its JSON keeps the source documents' field
// names (reasoning.hypotheses, reasoning.dependency_map, retrieval.plans,
// retrieval.queries) and adds diagnostics.
type Plan struct {
	Query       string       `json:"query,omitempty"`
	Mode        string       `json:"mode"`
	Reasoning   Reasoning    `json:"reasoning"`
	Retrieval   Retrieval    `json:"retrieval"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Interpretation is set by Planner.Interpret; Plan leaves it nil.
	Interpretation *Interpretation `json:"interpretation,omitempty"`
	// Ambiguities are what the question leaves open (see Ambiguity); a
	// blocking one is asked back before anything runs.
	Ambiguities []Ambiguity `json:"ambiguities,omitempty"`
	// Profile is the task profile and the depth chosen for it; nil when
	// the rules define no depth levels.
	Profile *Profile `json:"task_profile,omitempty"`
	// Validation is set by ValidatePlan: what it found and refined.
	Validation *PlanValidation `json:"plan_validation,omitempty"`

	// Steps carries, per hypothesis and in the same order, what the run
	// needs beyond what the plan shows, and Policy what it needs of the
	// rules (shared by the planner's plans in the same mode; a run needs
	// it). Neither is serialised nor rendered: redact.Value leaves them.
	Steps  []Step  `json:"-" redact:"-"`
	Policy *Policy `json:"-" redact:"-"`
}

// Reasoning is the reasoning structure.
type Reasoning struct {
	Intents       []Intent            `json:"intents"`
	Entities      map[string][]string `json:"entities"`
	Hypotheses    []Hypothesis        `json:"hypotheses"`
	DependencyMap DependencyMap       `json:"dependency_map"`
}

// Hypothesis is one reasoning step.
type Hypothesis struct {
	ID           string   `json:"id"`
	Description  string   `json:"description"`
	Dependencies []string `json:"dependencies"`
	Intent       string   `json:"intent"`           // the intent type it was planned for
	IntentIndex  int      `json:"intent_index"`     // that intent's index in Reasoning.Intents
	Name         string   `json:"name"`             // the hypothesis name in the intent template
	Action       Action   `json:"action,omitempty"` // as declared; Step has it with the defaults
	Agent        string   `json:"agent,omitempty"`
	Role         Role     `json:"role,omitempty"` // as declared: analyst, critic, writer, clarification
}

// DependencyMap is the dependency graph: edges run from a hypothesis to the
// hypotheses that depend on it. Edges marshal in node order.
type DependencyMap struct {
	Nodes []string            `json:"nodes"`
	Edges map[string][]string `json:"edges"`
}

// Retrieval holds the retrieval plans and their queries, highest priority first.
type Retrieval struct {
	Plans   []RetrievalPlan `json:"plans"`
	Queries []Query         `json:"queries"`
}

// RetrievalPlan is one retrieval on one source.
type RetrievalPlan struct {
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Sources     []string `json:"sources"`
	Kind        string   `json:"kind,omitempty"` // record kind it needs; "" takes the source's default
	Filters     Filters  `json:"filters"`
	Priority    int      `json:"priority"`
	Intent      string   `json:"intent"`
	Hypothesis  string   `json:"hypothesis,omitempty"` // the retrieve step that runs it
	Limit       int      `json:"limit,omitempty"`
	// Optional says the answer can do without it (required = false in the
	// rules): when no source serves it, or it finds nothing, its step and
	// the run are partial, not failed.
	Optional bool `json:"optional,omitempty"`
	// Rank orders its records by relevance to the question (BM25 over title
	// and body; records that match no term are left out) and keeps the
	// first Limit, rather than asking the source for Limit records.
	Rank bool `json:"rank,omitempty"`
	// RankIgnore are words of the question the ranking leaves out besides
	// the engine's function words ("use", "documentation").
	RankIgnore []string `json:"rank_ignore,omitempty"`
	// RankWeights scale the relevance of records from files a glob matches
	// (a glob without "/" matches the file's name, else its path).
	RankWeights map[string]float64 `json:"rank_weights,omitempty"`
}

// Query is the normalised query of a plan.
type Query struct {
	ID          string  `json:"id"`
	QueryString string  `json:"query_string"`
	Source      string  `json:"source"`
	Filters     Filters `json:"filters"`
	// Results is set in a run's result, after execution; a plan never has it.
	Results *QueryResult `json:"results,omitempty"`
}

// Filters are entity filters in the rule's order; JSON keeps that order.
type Filters []Filter

// Filter is one entity filter.
type Filter struct {
	Key    string
	Values []string
}

// Step is what a hypothesis runs, its template's defaults applied.
type Step struct {
	ID     string
	Action Action // a step without one that runs retrieval plans retrieves
	Role   Role   // the agent role it runs; RoleNone when it runs no agent
	Agent  string // the agent called for Role
	Plans  []int  // indexes into Retrieval.Plans run by this step (retrieve actions)
}

// Severity of a plan diagnostic.
type Severity string

// Diagnostic severities.
const (
	SeverityInfo    Severity = "info" // worth knowing, nothing wrong (a skipped low-confidence intent)
	SeverityWarning Severity = "warning"
	SeverityError   Severity = "error"
)

// Diagnostic is a problem found while planning (a broken cycle, an unknown
// intent type that fell back, a skipped low-confidence intent).
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"` // stable: cycle_broken, unknown_intent, low_confidence, …
	Message  string   `json:"message"`
}

// Errors returns the plan's error diagnostics: a plan with any must not run.
func (p *Plan) Errors() []Diagnostic {
	var errs []Diagnostic
	for _, d := range p.Diagnostics {
		if d.Severity == SeverityError {
			errs = append(errs, d)
		}
	}
	return errs
}
