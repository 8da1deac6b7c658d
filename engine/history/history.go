// Package history records what one run of the executor did: its passes,
// every step run with timings and status, the validation reports,
// convergence assessments and refinements, the final result and totals.
// With a log directory it also writes the run as per-run JSON files.
package history

import (
	"time"

	"github.com/nous-dev/nous/engine"
)

// History is the execution history of one run.
type History struct {
	ExecutionID   string        `json:"execution_id"`
	TaskInput     string        `json:"task_input"`
	Configuration Configuration `json:"configuration"`
	// PlanValidation is what the plan validation found and refined before
	// the first pass (engine.ValidatePlan).
	PlanValidation *engine.PlanValidation `json:"plan_validation,omitempty"`
	Passes         []Pass                 `json:"passes"`
	Termination    string                 `json:"termination"` // why the loop stopped (see the Termination constants)
	FinalResult    FinalResult            `json:"final_result"`
	Statistics     Statistics             `json:"overall_statistics"`
	StartedAt      time.Time              `json:"started_at"`
	EndedAt        time.Time              `json:"ended_at"`
}

// Reasons the loop stopped.
const (
	Converged   = "converged"    // every step completed and validated
	MaxPasses   = "max_passes"   // out of passes
	TTLExpired  = "ttl"          // out of time
	RefineLimit = "refine_limit" // a step needed refinement the limits did not allow
	Stalled     = "stalled"      // steps failed and nothing was left to refine
	Cancelled   = "cancelled"    // the caller cancelled (Ctrl-C)
	Failed      = "failed"       // a fatal error ended the run
	AskedBack   = "asked_back"   // the question was ambiguous: nothing ran, the user was asked
)

// Configuration is the loop configuration the run used.
type Configuration struct {
	Mode          string `json:"mode"`
	MaxPasses     int    `json:"max_passes"`
	TTL           string `json:"ttl"`
	RefinePerStep int    `json:"refine_per_step"`
	RefineTotal   int    `json:"refine_total"`
	Workers       int    `json:"workers"`
	MaxRecords    int    `json:"max_records,omitempty"`
	// Profile is the plan's task profile and the depth the run began at,
	// whose budget the limits above are; nil without depth levels.
	Profile *engine.Profile `json:"task_profile,omitempty"`
}

// Pass is one execute → validate → assess → refine round.
type Pass struct {
	Number      int          `json:"number"`
	Depth       string       `json:"depth,omitempty"` // the depth level the pass ran at
	DepthChange *DepthChange `json:"depth_change,omitempty"`
	Steps       []StepRun    `json:"steps"`
	Validation  Report       `json:"validation"`
	Convergence Assessment   `json:"convergence"`
	Refinements []Refinement `json:"refinements"`
	StartedAt   time.Time    `json:"started_at"`
	EndedAt     time.Time    `json:"ended_at"`
}

// DepthChange is the move of the run's depth that re-assessing it after a
// pass made (at most one level), and the budget the next passes have.
type DepthChange struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Level      int    `json:"level"` // of To
	MaxPasses  int    `json:"max_passes"`
	TTL        string `json:"ttl"` // counted from the run's start
	MaxRecords int    `json:"max_records"`
	Reason     string `json:"reason"` // the condition that moved it
}

// StepRun is one execution of a step in a pass.
type StepRun struct {
	ID         string              `json:"id"`
	Intent     string              `json:"intent,omitempty"`
	Name       string              `json:"name,omitempty"`
	Action     string              `json:"action,omitempty"`
	Role       string              `json:"role,omitempty"`
	Status     engine.Status       `json:"status"`
	Attempt    int                 `json:"attempt"` // refinements applied before this run
	Filters    map[string][]string `json:"filters,omitempty"`
	Records    int                 `json:"records"`
	Dropped    int                 `json:"dropped,omitempty"` // records the mode dropped
	Flagged    int                 `json:"flagged,omitempty"` // records the mode flagged
	Verdict    string              `json:"verdict,omitempty"`
	Output     string              `json:"output,omitempty"` // short summary
	Error      string              `json:"error,omitempty"`
	Partial    string              `json:"partial,omitempty"` // why a completed step's evidence is incomplete: a source failed, maybe mid-stream
	AgentCalls int                 `json:"agent_calls,omitempty"`
	StartedAt  time.Time           `json:"started_at"`
	EndedAt    time.Time           `json:"ended_at"`
	DurationMS int64               `json:"duration_ms"`

	// StartSeq and EndSeq order step starts and ends across the run; they
	// show which steps overlapped without relying on wall-clock time.
	StartSeq int `json:"-"`
	EndSeq   int `json:"-"`
}

// Severities of validation findings.
const (
	SeverityPass = "pass"
	SeverityWarn = "warn"
	SeverityFail = "fail"
)

// Report is a pass's validation report.
type Report struct {
	Findings []Finding `json:"findings"`
	Passed   int       `json:"passed"`
	Warnings int       `json:"warnings"`
	Failed   int       `json:"failed"`
}

// Finding is the result of one check (or critic review) on one step.
type Finding struct {
	Check    string `json:"check"` // check name, "critic" or "validator"
	Step     string `json:"step"`
	Severity string `json:"severity"` // pass | warn | fail
	Message  string `json:"message,omitempty"`
	OnFail   string `json:"on_fail,omitempty"` // refine | warn | fail
}

// Add appends f and counts it.
func (r *Report) Add(f Finding) {
	r.Findings = append(r.Findings, f)
	switch f.Severity {
	case SeverityPass:
		r.Passed++
	case SeverityWarn:
		r.Warnings++
	default:
		r.Failed++
	}
}

// Assessment is a pass's convergence assessment, derived from its report.
type Assessment struct {
	Converged    bool     `json:"converged"`
	Reason       string   `json:"reason"`
	Completeness float64  `json:"completeness"` // completed steps / steps
	Completed    []string `json:"completed"`
	NeedRefine   []string `json:"need_refinement"`
	Failed       []string `json:"failed"`
	Pending      []string `json:"pending"`
}

// Refinement is one delta proposed on a step, applied or refused.
type Refinement struct {
	Op            string              `json:"op"` // ADD | MODIFY | REMOVE | REPLACE
	Step          string              `json:"target_step_id"`
	NewStep       string              `json:"new_step_id,omitempty"` // ADD
	DropFilters   []string            `json:"drop_filters,omitempty"`
	SetFilters    map[string][]string `json:"set_filters,omitempty"`
	Limit         int                 `json:"limit,omitempty"`
	Nearest       string              `json:"nearest,omitempty"`         // before | after: look around an empty period
	Description   string              `json:"new_description,omitempty"` // MODIFY: the hypothesis description it gives
	Justification string              `json:"justification"`
	Applied       bool                `json:"applied"`
	Refused       string              `json:"refused,omitempty"` // why it was not applied
}

// FinalResult is the run's outcome.
type FinalResult struct {
	Status     string   `json:"status"` // success | partial | failed | cancelled
	Report     string   `json:"report"`
	Confidence string   `json:"confidence,omitempty"`
	Sources    []string `json:"sources_used,omitempty"`
	Error      string   `json:"error,omitempty"`
	// Queries are the plan's queries with their results, as executed.
	Queries []engine.Query `json:"queries,omitempty"`
}

// Statistics are the run's totals.
type Statistics struct {
	Passes           int   `json:"passes"`
	StepRuns         int   `json:"step_runs"`
	StepsFailed      int   `json:"steps_failed"`
	Refinements      int   `json:"refinements"`
	AgentCalls       int   `json:"agent_calls"`
	Records          int   `json:"records"`
	PromptTokens     int   `json:"prompt_tokens"`
	CompletionTokens int   `json:"completion_tokens"`
	DurationMS       int64 `json:"duration_ms"`
}
