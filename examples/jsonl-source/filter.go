package main

import (
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// Filter keys this source understands.
const (
	filterKind   = "kind"
	filterAuthor = "author"
	filterQuery  = "query"
)

// matcher decides which records a FetchRequest wants. Within a filter key
// any value may match; across keys all must. Since and until are inclusive.
type matcher struct {
	req     sdk.FetchRequest
	kinds   []string
	authors []string
	terms   []string
}

func newMatcher(req sdk.FetchRequest) matcher {
	m := matcher{req: req, kinds: req.Filters[filterKind], authors: req.Filters[filterAuthor]}
	if req.Kind != "" {
		m.kinds = append(m.kinds, req.Kind)
	}
	for _, q := range req.Filters[filterQuery] {
		m.terms = append(m.terms, strings.ToLower(q))
	}
	return m
}

func (m matcher) match(r sdk.Record) bool {
	if len(m.kinds) > 0 && !anyEqualFold(m.kinds, r.Kind) {
		return false
	}
	if len(m.authors) > 0 && !anyEqualFold(m.authors, r.Author) {
		return false
	}
	if !m.req.Since.IsZero() && (r.Time.IsZero() || r.Time.Before(m.req.Since)) {
		return false
	}
	if !m.req.Until.IsZero() && (r.Time.IsZero() || r.Time.After(m.req.Until)) {
		return false
	}
	if len(m.terms) == 0 {
		return true
	}
	text := strings.ToLower(r.Title + "\n" + r.Body)
	for _, term := range m.terms {
		if strings.Contains(text, term) {
			return true
		}
	}
	return false
}

func anyEqualFold(values []string, s string) bool {
	for _, v := range values {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
