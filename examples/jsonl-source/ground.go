package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/sdk"
)

// Source grounds terms: nous asks it before planning.
var _ sdk.Grounder = (*Source)(nil)

// vocabularyFields are the record fields whose values ground each term
// kind; the author grounds against the record's author.
var vocabularyFields = map[string][]string{
	sdk.TermProject: {"project"},
	sdk.TermState:   {"state", "status"},
	sdk.TermLabel:   {"labels", "tags"},
}

// Ground tells nous which of a question's projects, states, labels and
// authors appear in the file, matched case-insensitively, with the file's
// own spellings as canonical forms and the span of its record times as
// coverage. It reads the file afresh, as Fetch does.
func (s *Source) Ground(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	s.mu.RLock()
	cfg, loaded := s.cfg, s.loaded
	s.mu.RUnlock()
	if !loaded {
		return sdk.GroundResponse{}, sdk.Errorf(sdk.KindBadConfig, "jsonl: not configured; set config.path in the source block")
	}
	v := newVocabulary()
	if err := eachLine(ctx, cfg, v.add); err != nil {
		return sdk.GroundResponse{}, err
	}
	resp := sdk.GroundResponse{
		Terms:    make([]sdk.GroundedTerm, len(req.Terms)),
		Coverage: sdk.Coverage{Earliest: v.earliest, Latest: v.latest, Name: filepath.Base(cfg.Path)},
	}
	for i, t := range req.Terms {
		resp.Terms[i] = v.ground(t)
	}
	return resp, nil
}

// vocabulary holds, per term kind, the file's spellings by lower case.
type vocabulary struct {
	forms            map[string]map[string][]string // kind → lower-cased value → spellings
	earliest, latest time.Time
}

func newVocabulary() *vocabulary {
	v := &vocabulary{forms: map[string]map[string][]string{}}
	for kind := range vocabularyFields {
		v.forms[kind] = map[string][]string{}
	}
	v.forms[sdk.TermAuthor] = map[string][]string{}
	return v
}

// add records r's values and widens the time span.
func (v *vocabulary) add(r sdk.Record) error {
	v.note(sdk.TermAuthor, r.Author)
	for kind, fields := range vocabularyFields {
		for _, f := range fields {
			switch val := r.Fields[f].(type) {
			case string:
				v.note(kind, val)
			case []string:
				for _, s := range val {
					v.note(kind, s)
				}
			}
		}
	}
	if !r.Time.IsZero() {
		if v.earliest.IsZero() || r.Time.Before(v.earliest) {
			v.earliest = r.Time
		}
		if r.Time.After(v.latest) {
			v.latest = r.Time
		}
	}
	return nil
}

func (v *vocabulary) note(kind, value string) {
	value = strings.TrimSpace(value)
	if value == "" {
		return
	}
	key := strings.ToLower(value)
	forms := v.forms[kind][key]
	if len(forms) < sdk.MaxCanonical && !slices.Contains(forms, value) {
		v.forms[kind][key] = append(forms, value)
	}
}

// ground answers one term: known when the file holds the value in any case.
func (v *vocabulary) ground(t sdk.Term) sdk.GroundedTerm {
	g := sdk.GroundedTerm{Kind: t.Kind, Value: t.Value}
	byValue, ok := v.forms[t.Kind]
	if !ok {
		g.Note = "jsonl grounds project, state, label and author terms only"
		return g
	}
	forms := byValue[strings.ToLower(strings.TrimSpace(t.Value))]
	if len(forms) == 0 {
		g.Note = "no record in the file has this " + t.Kind
		return g
	}
	g.Known = true
	g.Canonical = slices.Sorted(slices.Values(forms))
	return g
}
