package sdk

// The validator role: a semantic validation of a pass's settled steps,
// each result judged against the hypothesis it was meant to answer. Its
// verdicts feed the convergence assessment next to the rules' checks; its
// suggested deltas become refinements under the loop's limits.

// ValidatorInput asks the validator to judge the steps a pass settled.
type ValidatorInput struct {
	Query string `json:"query"`
	Mode  string `json:"mode"`
	Pass  int    `json:"pass"`
	// Period is the period the question names, when it names one.
	Period *TimeRange      `json:"period,omitempty"`
	Steps  []ValidatedStep `json:"steps"`
	// Depth is the run's reasoning-depth level (the rules' depth block
	// name, "direct" … "exhaustive" by default): how much effort the
	// question deserves. Empty when the rules define no depth levels.
	Depth string `json:"depth,omitempty"`
}

// ValidatedStep is one settled step as the validator sees it: what it was
// meant to answer, what it ran and a bounded summary of what it produced.
type ValidatedStep struct {
	ID         string              `json:"id"`
	Hypothesis string              `json:"hypothesis"` // the hypothesis description
	Action     string              `json:"action"`
	Role       string              `json:"role,omitempty"`
	Status     string              `json:"status"`
	Records    int                 `json:"records"`         // every record it holds, shown or counted
	Kinds      map[string]int      `json:"kinds,omitempty"` // those records by kind
	Output     string              `json:"output,omitempty"`
	Truncated  bool                `json:"truncated,omitempty"` // Output was cut to its bound
	Filters    map[string][]string `json:"filters,omitempty"`
	Error      string              `json:"error,omitempty"`
	// Relevance is what a ranked retrieval's records leave out of the
	// question ("No documentation about hclwrite found in expr's 119
	// documents."), empty when they match all its terms.
	Relevance string `json:"relevance,omitempty"`
}

// Validator verdicts on a step.
const (
	VerdictValid     = "valid"     // the result answers its hypothesis
	VerdictInvalid   = "invalid"   // it does not: the issues say why
	VerdictUncertain = "uncertain" // the validator cannot tell
)

// ValidatorOutput is the validator's judgement of a pass.
type ValidatorOutput struct {
	Steps []StepVerdict `json:"steps"`
}

// StepVerdict is the validator's judgement of one step.
type StepVerdict struct {
	Step    string   `json:"step"`
	Verdict string   `json:"verdict"` // VerdictValid | VerdictInvalid | VerdictUncertain
	Issues  []string `json:"issues"`
	Deltas  []Delta  `json:"deltas"`
}

// Delta is a refinement the validator suggests (the source documents'
// RefinementAction): Op is ADD, MODIFY, REMOVE or REPLACE.
type Delta struct {
	Op            string      `json:"op"`
	Step          string      `json:"target_step"`
	Description   string      `json:"description"` // a new hypothesis description; "" keeps it
	DropFilters   []string    `json:"drop_filters"`
	SetFilters    []FilterSet `json:"set_filters"`
	Limit         int         `json:"limit"` // 0 keeps it
	Justification string      `json:"justification"`
}

// FilterSet gives a filter its values.
type FilterSet struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}
