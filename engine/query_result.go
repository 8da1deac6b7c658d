package engine

// Statuses of a QueryResult.
const (
	QuerySucceeded = "success" // every source of the query answered
	QueryPartial   = "partial" // some sources answered, or a stream ended in an error after some records
	QueryFailed    = "failed"  // no source answered
	QueryNotRun    = "not_run" // the step that runs the query never ran it (skipped, or the loop ended first)
)

// QueryResult is what a query returned when the run executed it (the
// retrieval document's "Populated after execution"): its last execution,
// as the steps' final states are theirs.
type QueryResult struct {
	Status  string `json:"status"`          // QuerySucceeded | QueryPartial | QueryFailed | QueryNotRun
	Records int    `json:"records"`         // records its sources returned, before the mode's tier policy
	Error   string `json:"error,omitempty"` // why it failed or is partial, secrets masked, bounded
	// Nearest is set (before | after) when a refinement ran the query for
	// the nearest activity outside its period: its records are not the
	// period's answer.
	Nearest string `json:"nearest,omitempty"`
}
