package engine

// Status is where a step of a run stands.
type Status string

// Step statuses.
const (
	StatusPending   Status = "pending"
	StatusRunning   Status = "running"
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusSkipped   Status = "skipped"
	StatusInvalid   Status = "invalid" // ran, but validation asks for a refinement
	StatusRemoved   Status = "removed" // removed by a REMOVE refinement
)
