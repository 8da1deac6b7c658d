package sdk

import "time"

// Role inputs and outputs. The engine sends the input as InvokeRequest.Input
// and expects the output, as JSON, in InvokeResponse.Output. Field names
// follow the actor-critic design the roles come from.

// Turn is an earlier question of the conversation a question belongs to
// (`nous ask --session`) and the answer nous gave, bounded.
type Turn struct {
	Query  string `json:"query"`
	Answer string `json:"answer"`
}

// AnalystInput asks the analyst to research (Review nil) or to revise a
// rejected draft (Review set).
type AnalystInput struct {
	Query    string        `json:"query"`
	Mode     string        `json:"mode"`
	Task     string        `json:"task,omitempty"` // the hypothesis description being worked on
	Draft    string        `json:"draft,omitempty"`
	Review   *CriticOutput `json:"review,omitempty"`
	Temporal *TimeRange    `json:"temporal_context,omitempty"`
	// Evidence counts every record when the context shows only some.
	Evidence *Evidence `json:"evidence,omitempty"`
	// Depth is the run's reasoning-depth level (the rules' depth block
	// name, "direct" … "exhaustive" by default): how much effort the
	// question deserves. Empty when the rules define no depth levels.
	Depth string `json:"depth,omitempty"`
	// Conversation is the question's earlier turns, oldest first, when it
	// is asked in a session: what "and the week before?" continues.
	Conversation []Turn `json:"conversation,omitempty"`
}

// Evidence summarises the whole set of records a step holds when
// InvokeRequest.Context carries only a selection of them (the newest
// Shown of Total): counts an agent should report instead of counting the
// context. Counts by author and state keep at most a bounded number of
// distinct values; OtherAuthors and OtherStates count the records of the
// rest.
type Evidence struct {
	Total        int            `json:"total"`
	Shown        int            `json:"shown"`
	Kinds        map[string]int `json:"kinds,omitempty"`
	Sources      map[string]int `json:"sources,omitempty"`
	Authors      map[string]int `json:"authors,omitempty"`
	OtherAuthors int            `json:"other_authors,omitempty"`
	States       map[string]int `json:"states,omitempty"`
	OtherStates  int            `json:"other_states,omitempty"`
	Earliest     time.Time      `json:"earliest,omitzero"`
	Latest       time.Time      `json:"latest,omitzero"`
	// Lines tallies the records' line statistics when they carry them
	// (a question about files changed most, lines added, the largest
	// commits), or counts the commits that do not.
	Lines *LineStats `json:"lines,omitempty"`
}

// TimeRange is a resolved time range, [Since, Until); a zero end is
// unbounded.
type TimeRange struct {
	Since time.Time `json:"since,omitzero"`
	Until time.Time `json:"until,omitzero"`
	// Kinds are the record kinds the period was applied to; empty means all.
	Kinds []string `json:"kinds,omitempty"`
}

// Analyst statuses.
const (
	AnalystSearchRequired = "SEARCH_REQUIRED"
	AnalystDraftReady     = "DRAFT_READY"
)

// AnalystOutput is the analyst's answer.
type AnalystOutput struct {
	Status         string   `json:"status"` // SEARCH_REQUIRED | DRAFT_READY
	NewQueries     []string `json:"new_queries"`
	Draft          string   `json:"draft"`
	ReasoningChain string   `json:"reasoning_chain"`
}

// CriticInput asks the critic to review a draft.
type CriticInput struct {
	Draft string `json:"draft"`
	Query string `json:"query"`
	Mode  string `json:"mode"`
	// Evidence counts every record when the context shows only some, so a
	// draft that counts them all is not an overclaim.
	Evidence *Evidence `json:"evidence,omitempty"`
	// Depth is the run's reasoning-depth level (the rules' depth block
	// name, "direct" … "exhaustive" by default): how much effort the
	// question deserves. Empty when the rules define no depth levels.
	Depth string `json:"depth,omitempty"`
	// Conversation is the question's earlier turns (see AnalystInput).
	Conversation []Turn `json:"conversation,omitempty"`
}

// Critic verdicts.
const (
	VerdictPass   = "PASS"
	VerdictWarn   = "WARN"
	VerdictReject = "REJECT"
)

// CriticOutput is the critic's review.
type CriticOutput struct {
	Status         string   `json:"status"` // PASS | WARN | REJECT
	Critique       string   `json:"critique"`
	Suggestions    []string `json:"suggestions"`
	ModeCompliance string   `json:"mode_compliance"`
	LogicalGaps    []string `json:"logical_gaps"`
}

// WriterInput is compose(draft, review, context, mode); the context travels
// as InvokeRequest.Context.
type WriterInput struct {
	Query  string        `json:"query"`
	Draft  string        `json:"draft"`
	Review *CriticOutput `json:"review,omitempty"`
	Mode   string        `json:"mode"`
	// Temporal is the period the question asks about, when it names one.
	Temporal *TimeRange `json:"temporal_context,omitempty"`
	// Caveats say why the answer can only be partial (a constraint no
	// source could apply, a source that failed); a writer says so and does
	// not claim high confidence.
	Caveats []string `json:"caveats,omitempty"`
	// Evidence counts every record when the context shows only some.
	Evidence *Evidence `json:"evidence,omitempty"`
	// Depth is the run's reasoning-depth level (the rules' depth block
	// name, "direct" … "exhaustive" by default): how much effort the
	// question deserves. Empty when the rules define no depth levels.
	Depth string `json:"depth,omitempty"`
	// Conversation is the question's earlier turns (see AnalystInput).
	Conversation []Turn `json:"conversation,omitempty"`
}

// WriterOutput is the final report.
type WriterOutput struct {
	FinalReport     string   `json:"final_report"`
	SourcesUsed     []string `json:"sources_used"`
	ConfidenceLevel string   `json:"confidence_level"` // High | Medium | Low
}

// ClarificationInput asks for options that disambiguate a question.
type ClarificationInput struct {
	Query string `json:"query"`
	// AmbiguityType is what the question leaves open: "intent" (two
	// intents whose answers exclude each other), "missing_entity" (an
	// intent needs an entity the question does not name) or
	// "multiple_matches" (a value matched several things in a source).
	AmbiguityType string `json:"ambiguity_type"`
	// Entity is the entity missing or matched several times ("authors").
	Entity string `json:"entity,omitempty"`
	// Message says in one sentence what is open.
	Message string `json:"message,omitempty"`
	// Candidates are what the user may mean, most likely first: the
	// intents, or the things the value matched ("Jeff King").
	Candidates []string `json:"candidates,omitempty"`
	// Conversation is the question's earlier turns (see AnalystInput).
	Conversation []Turn `json:"conversation,omitempty"`
}

// ClarificationOutput offers the user options.
type ClarificationOutput struct {
	Question string   `json:"question"`
	Options  []string `json:"options"`
}
