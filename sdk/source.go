package sdk

import (
	"context"
	"encoding/json"
	"maps"
	"time"
)

// Source is a data source plugin: GitLab, YouTrack, a git repository, files.
type Source interface {
	// Describe says what the source is and what it understands.
	Describe(ctx context.Context) (SourceInfo, error)
	// Configure applies the source's config (JSON from the rules file).
	// Problems come back as diagnostics; err is for failures to configure at all.
	Configure(ctx context.Context, config json.RawMessage) (Diagnostics, error)
	// Fetch streams the records matching req to emit, at most req.Limit of
	// them when Limit > 0. The deadline is ctx's. Fetch stops and returns
	// emit's error when emit fails.
	Fetch(ctx context.Context, req FetchRequest, emit func(Record) error) error
}

// SourceInfo describes a source plugin.
type SourceInfo struct {
	Name         string          `json:"name"`
	Version      string          `json:"version"`                 // the plugin's own version
	SDKVersion   string          `json:"sdk_version"`             // the SDK it was built with; Serve fills in Version when empty
	Kinds        []string        `json:"kinds"`                   // record kinds it can return
	Filters      []string        `json:"filters"`                 // filter keys it understands
	ConfigSchema json.RawMessage `json:"config_schema,omitempty"` // JSON Schema of its config, if it has one
}

// FetchRequest asks a source for records.
type FetchRequest struct {
	Query   string              `json:"query,omitempty"`   // the plan's human-readable query string
	Kind    string              `json:"kind,omitempty"`    // wanted record kind; empty means the source's default
	Filters map[string][]string `json:"filters,omitempty"` // projects, statuses, providers, and source-specific keys
	Since   time.Time           `json:"since,omitzero"`    // resolved from the dates filter; zero is unbounded
	Until   time.Time           `json:"until,omitzero"`    // exclusive: records from [Since, Until); zero is unbounded
	Limit   int                 `json:"limit,omitempty"`   // at most this many records; 0 is no limit
}

// FilterWithStats is the filter key ("true"/"false") asking a commit
// source for the records' line statistics (files, additions, deletions,
// paths), which cost a diff per commit: the host asks for them only when
// it shows record fields.
const FilterWithStats = "with_stats"

// WithFilter returns a copy of r whose filter key holds values; r's own
// map is not changed.
func (r FetchRequest) WithFilter(key string, values ...string) FetchRequest {
	filters := make(map[string][]string, len(r.Filters)+1)
	maps.Copy(filters, r.Filters)
	filters[key] = values
	r.Filters = filters
	return r
}
