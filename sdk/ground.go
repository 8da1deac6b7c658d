package sdk

import (
	"context"
	"time"
)

// Term kinds a question's constraints are grounded as.
const (
	TermPath    = "path"    // a file or directory in the repository tree
	TermAuthor  = "author"  // an author or committer, by name or e-mail
	TermRef     = "ref"     // a tag, branch or release
	TermProject = "project" // a project or repository
	TermLabel   = "label"   // an issue label or tag
	TermState   = "state"   // an issue or merge-request state
)

// RefBefore starts a ref term that names the tag before another ref:
// "before v1.2.0" is the first tagged commit in the history of v1.2.0's
// parents, as `git describe --tags --abbrev=0 v1.2.0^` finds it; "before
// last release" the one before the latest tag. A source that knows it
// answers with that tag, or, when no tag comes before, with the empty
// string: the release's range is then its whole history.
const RefBefore = "before "

// Grounder is implemented by sources that can say which of a question's
// terms they know. It is optional: a source without it grounds nothing, and
// the engine keeps the question's terms as they were written.
type Grounder interface {
	// Ground answers, for each term, whether the source knows it and in
	// which form, and describes what the source holds (its coverage).
	Ground(ctx context.Context, req GroundRequest) (GroundResponse, error)
}

// GroundRequest asks a source about candidate terms of a question.
type GroundRequest struct {
	Terms []Term `json:"terms"`
	// Since and Until are the question's period, zero when unbounded (Until
	// exclusive). Optional: a source may judge its terms in it (the authors
	// with commits in the period), or ignore it.
	Since time.Time `json:"since,omitzero"`
	Until time.Time `json:"until,omitzero"`
}

// Term is a candidate constraint as the question wrote it.
type Term struct {
	Kind  string `json:"kind"`  // TermPath, TermAuthor, …
	Value string `json:"value"` // as written: "hclwrite", "Radek", "v1.17.0"
}

// GroundResponse is a source's answer to a GroundRequest.
type GroundResponse struct {
	// Terms answers every requested term, in request order.
	Terms []GroundedTerm `json:"terms"`
	// Filters lists the filter keys the source applies; Serve fills it from
	// SourceInfo.Filters when the source leaves it empty.
	Filters []string `json:"filters,omitempty"`
	// Coverage describes what the source holds; zero when unknown.
	Coverage Coverage `json:"coverage,omitzero"`
}

// GroundedTerm is what a source knows of one Term.
type GroundedTerm struct {
	Kind  string `json:"kind"`
	Value string `json:"value"` // as requested
	Known bool   `json:"known"`
	// Canonical lists the source's own forms of the term when known: the
	// full path ("plumbing/format/packfile"), "Name <email>", the tag name.
	// Empty means Value itself.
	Canonical []string `json:"canonical,omitempty"`
	// ID and Time identify a ref: its commit (full SHA) and commit time.
	ID   string    `json:"id,omitempty"`
	Time time.Time `json:"time,omitzero"`
	// Note says why a term is not known or how it was matched.
	Note string `json:"note,omitempty"`
	// Partial says the source looked at only part of what it holds (a
	// bound cut its index short): Canonical may miss forms.
	Partial bool `json:"partial,omitempty"`
}

// Coverage is the extent of what a source holds.
type Coverage struct {
	Earliest time.Time `json:"earliest,omitzero"` // from when its history is complete (with Truncated: the boundary)
	Latest   time.Time `json:"latest,omitzero"`   // newest record it can return
	// Truncated says why the source's history is incomplete (a shallow
	// clone's boundary); empty when it is complete or unknown.
	Truncated string `json:"truncated,omitempty"`
	// Name is what the source holds, for the report: "hashicorp/hcl".
	Name string `json:"name,omitempty"`
	// Remote is where the source says its project is hosted (a git
	// repository's origin); nil when unknown.
	Remote *Remote `json:"remote,omitempty"`
}

// Remote kinds: the hosting services a Remote's host is known to be.
const (
	RemoteGitHub = "github" // github.com
	RemoteGitLab = "gitlab" // gitlab.com
)

// Remote is a hosted project a source points at, without credentials.
type Remote struct {
	Host string `json:"host,omitempty"` // host name without port: "github.com"
	Path string `json:"path,omitempty"` // project path without ".git": "owner/name", "group/sub/name"
	Kind string `json:"kind,omitempty"` // RemoteGitHub, RemoteGitLab, or "" for any other host
}

// Bounds of a Ground call. A question has a handful of terms; the bounds
// keep a runaway caller or plugin from costing more than a fetch.
const (
	MaxGroundTerms = 256 // terms in one GroundRequest
	MaxTermBytes   = 256 // bytes in a term's kind or value
	MaxCanonical   = 64  // canonical forms of one GroundedTerm
)
