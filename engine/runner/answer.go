package runner

import (
	"time"

	"github.com/nous-dev/nous/sdk"
)

// Record fields the answers read.
const (
	// FieldShortID is the display id a source gives a record (a commit's
	// abbreviated hash, long enough to be unique).
	FieldShortID = "short_id"
)

// Answer is what the run found for one intent of the question: what was
// understood, the records that answer it, and the writer's text.
type Answer struct {
	Intent string `json:"intent"` // intent type: query_commits, query_analytics, …
	// Understood is what was asked, in one line: "Commits in hashicorp/hcl
	// touching hclwrite/, 2024-01-01 – 2024-12-31".
	Understood string `json:"understood"`
	// Result is what was found, in one line: "6 commits by 3 authors", or
	// "no commits; the most recent before that is …".
	Result string `json:"result,omitempty"`
	Status string `json:"status"` // success | partial | failed
	// Counting is set when the question asks for a number.
	Counting bool `json:"counting,omitempty"`
	Count    int  `json:"count"`
	Authors  int  `json:"authors"`
	// Step is the step whose records answer the intent; Records are their
	// IDs (the records themselves are in Result.Records).
	Step    string   `json:"step,omitempty"`
	Records []string `json:"records"`
	// Steps are the intent's steps, planned then added by the loop.
	Steps []string `json:"steps"`
	// Outside is OutsideBefore (OutsideAfter) when the asked period
	// [AskedSince, AskedUntil) holds nothing and Nearest is the most recent
	// record before it (the oldest after it).
	Outside    string     `json:"outside,omitempty"`
	AskedSince time.Time  `json:"asked_since,omitzero"`
	AskedUntil time.Time  `json:"asked_until,omitzero"`
	Nearest    *RecordRef `json:"nearest,omitempty"`
	// Report is the writer's text for the intent (Markdown), Confidence its
	// confidence, SourcesUsed what it cites.
	Report      string   `json:"report,omitempty"`
	Confidence  string   `json:"confidence,omitempty"`
	SourcesUsed []string `json:"sources_used,omitempty"`
	// noStats counts the commits that carry no line statistics when the
	// question asked for them (and none did): a caveat says so.
	noStats int
}

// Line is the answer in one line: what was understood and what was found.
func (a Answer) Line() string {
	if a.Result == "" {
		return a.Understood
	}
	return a.Understood + ": " + a.Result
}

// RecordRef names one record for a reader.
type RecordRef struct {
	ID      string    `json:"id"`
	ShortID string    `json:"short_id"`
	Title   string    `json:"title,omitempty"`
	Time    time.Time `json:"time,omitzero"`
}

// DisplayID is how a report shows a record's id: the source's short_id
// field, else a long hexadecimal id (a commit hash) cut to 8 characters,
// else the id itself.
func DisplayID(r sdk.Record) string {
	if s, ok := r.Fields[FieldShortID].(string); ok && s != "" {
		return s
	}
	if len(r.ID) < 12 {
		return r.ID
	}
	for _, c := range r.ID {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return r.ID
		}
	}
	return r.ID[:8]
}

// OutsideOf is how r lies outside what was asked (OutsideBefore,
// OutsideAfter), "" when it answers the question.
func OutsideOf(r sdk.Record) string {
	switch v := r.Fields[FieldOutside].(type) {
	case bool:
		if v {
			return OutsideBefore
		}
	case string:
		if v != "" && v != "false" {
			return v
		}
	}
	return ""
}
