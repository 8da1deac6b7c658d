package cond

import "time"

// QueryEnv is the environment of conditions evaluated against the question:
// detect.when, retrieve.when, dependency.when, mode.when.
type QueryEnv struct {
	Query       string              `expr:"query"`        // the raw question
	IntentTypes []string            `expr:"intent_types"` // accepted intent types, in order
	Entities    map[string][]string `expr:"entities"`     // extracted or given entity values
	Mode        string              `expr:"mode"`         // the requested mode, if any
	// Sources are the configured sources, name → plugin: a retrieval may
	// depend on one being there ("'github' in sources").
	Sources map[string]string `expr:"sources"`

	text Text // Query with its fold, when built by NewQueryEnv
}

// NewQueryEnv returns the environment of the question text: the constant
// patterns its conditions match read text's fold, computed once.
func NewQueryEnv(text Text, entities map[string][]string, mode string) *QueryEnv {
	return &QueryEnv{Query: text.s, Entities: entities, Mode: mode, text: text}
}

// ItemEnv is the environment of mode.keep and mode.warn, evaluated per record.
type ItemEnv struct {
	Item  Item   `expr:"item"`
	Mode  string `expr:"mode"`
	Query string `expr:"query"`
}

// Item is the view of a record that conditions see.
type Item struct {
	ID     string    `expr:"id"`
	Source string    `expr:"source"`
	Kind   string    `expr:"kind"`
	Title  string    `expr:"title"`
	Body   string    `expr:"body"`
	URL    string    `expr:"url"`
	Author string    `expr:"author"`
	Time   time.Time `expr:"time"`
	Tier   int       `expr:"tier"` // 0 when the source is not in the tier table
	Type   string    `expr:"type"` // the tier table's type ("official", "news", …)
}

// StepEnv is the environment of check.applies and check.assert.
type StepEnv struct {
	Step       Step       `expr:"step"`
	Pass       int        `expr:"pass"` // 1-based
	Query      string     `expr:"query"`
	Mode       string     `expr:"mode"`
	Validation Validation `expr:"validation"`
}

// Step is the view of an executed step that checks see.
type Step struct {
	ID       string              `expr:"id"`     // h0, h1, …
	Intent   string              `expr:"intent"` // intent type
	Name     string              `expr:"name"`   // hypothesis name in the template
	Action   string              `expr:"action"`
	Agent    string              `expr:"agent"`
	Role     string              `expr:"role"`
	Status   string              `expr:"status"` // pending | running | completed | failed | skipped
	Error    string              `expr:"error"`
	Records  []Item              `expr:"records"`
	Output   string              `expr:"output"`  // agent output or transform summary
	Verdict  string              `expr:"verdict"` // critic: PASS | WARN | REJECT
	Filters  map[string][]string `expr:"filters"`
	Attempts int                 `expr:"attempts"` // refinements applied to this step
}

// Validation summarises the validation report so far in the current pass.
type Validation struct {
	Failed   int `expr:"failed"`
	Warnings int `expr:"warnings"`
	Passed   int `expr:"passed"`
}

// PassEnv is the environment of a pass's evaluate phase: whether the
// validator agent is called (validator.when).
type PassEnv struct {
	Pass       int        `expr:"pass"`       // 1-based
	MaxPasses  int        `expr:"max_passes"` // the loop's bound
	Steps      int        `expr:"steps"`      // settled steps the validator would judge
	Query      string     `expr:"query"`
	Mode       string     `expr:"mode"`
	Validation Validation `expr:"validation"` // the checks' findings in this pass
}

// ProfileEnv is the environment of depth.when (choosing the run's depth
// from the task profile, Pass zero) and of profile.deepen and profile.ease
// (re-assessing it at each pass boundary, Pass that pass's results).
type ProfileEnv struct {
	Query       string              `expr:"query"`
	Mode        string              `expr:"mode"`
	IntentTypes []string            `expr:"intent_types"`
	Entities    map[string][]string `expr:"entities"`
	// Profile and Pass are pointers so that reading them costs expr no
	// copy: conditions read them through reflection. Neither may be nil.
	Profile *Profile `expr:"profile"`
	Level   int      `expr:"level"` // the current depth level; 0 while choosing it
	Pass    *Pass    `expr:"pass"`
}

// Profile is the task profile: counts the planner takes from the question
// and its plan.
type Profile struct {
	Words       int `expr:"words"`       // words of the question
	Intents     int `expr:"intents"`     // accepted intents: the report's sections
	Entities    int `expr:"entities"`    // entity values the question names (or the request gives)
	Constraints int `expr:"constraints"` // entity kinds among them: how much the question pins down
	Hypotheses  int `expr:"hypotheses"`  // steps of the plan
	AgentSteps  int `expr:"agent_steps"` // steps that call an agent
	Retrievals  int `expr:"retrievals"`  // retrieval plans
	Sources     int `expr:"sources"`     // distinct sources the retrievals ask
}

// Pass is the view of a finished pass that re-assessment sees; zero while
// the depth is first chosen.
type Pass struct {
	Number         int `expr:"number"`          // 1-based
	Failed         int `expr:"failed"`          // validation findings that failed
	Warnings       int `expr:"warnings"`        // validation findings that warned
	NeedRefinement int `expr:"need_refinement"` // steps whose results validation refused
	FailedSteps    int `expr:"failed_steps"`    // steps that failed or were skipped
	Records        int `expr:"records"`         // records the pass's steps found
}
