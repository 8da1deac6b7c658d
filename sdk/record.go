package sdk

import "time"

// Record kinds the built-in sources produce. Plugins may use others.
const (
	KindCommit       = "commit"
	KindIssue        = "issue"
	KindMergeRequest = "merge_request"
	KindPullRequest  = "pull_request"
	KindPipeline     = "pipeline"
	KindRelease      = "release"
	KindDocument     = "document"
)

// Record is one piece of evidence a source returns. It is the only record
// type in nous: sources emit it, the engine filters and ranks it, agents read it.
type Record struct {
	ID     string    `json:"id"`
	Source string    `json:"source"` // the site or system it came from; looked up in the tier table
	Kind   string    `json:"kind"`
	Title  string    `json:"title,omitempty"`
	Body   string    `json:"body,omitempty"`
	URL    string    `json:"url,omitempty"`
	Author string    `json:"author,omitempty"`
	Time   time.Time `json:"time,omitzero"`
	Tier   int       `json:"tier,omitempty"` // 0 means unknown; set by the tier table when the source has none
	// Fields holds typed extra fields. Values are string, int64, float64,
	// bool, time.Time or []string; anything else is rejected on the wire.
	Fields map[string]any `json:"fields,omitempty"`
}
