package file

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nous-dev/nous/sdk"
)

var _ sdk.Grounder = (*Source)(nil)

// Ground tells which of a question's projects, states, labels and authors
// occur in the files, by the same matching the filters use: projects and
// labels whole and case-insensitively, states after folding case and
// separators (and the groups "resolved" and "unresolved"), authors as a
// case-insensitive substring. Coverage spans the records' times.
func (s *Source) Ground(ctx context.Context, req sdk.GroundRequest) (sdk.GroundResponse, error) {
	cfg, err := s.config()
	if err != nil {
		return sdk.GroundResponse{}, err
	}
	v := vocabulary{}
	// Documentation sections carry no projects, states, labels, authors or
	// times: nothing to read for them.
	if cfg.Format != FormatMarkdown {
		if err := eachRecord(ctx, *cfg, s.loc, &s.rows, v.add); err != nil {
			return sdk.GroundResponse{}, err
		}
	}
	resp := sdk.GroundResponse{
		Terms:    make([]sdk.GroundedTerm, len(req.Terms)),
		Coverage: sdk.Coverage{Earliest: v.earliest, Latest: v.latest, Name: coverageName(*cfg)},
		// Describe's, named here: left out, the sdk would call Describe for
		// them, which builds the config schema again on every Ground.
		Filters: slices.Clone(filterKeys),
	}
	for i, t := range req.Terms {
		resp.Terms[i] = v.ground(t)
	}
	return resp, nil
}

// vocabulary is what the files hold, by term kind: each distinct value as
// written, once.
type vocabulary struct {
	projects, states, labels, authors valueSet
	earliest, latest                  time.Time
}

// valueSet keeps distinct strings in the order first seen.
type valueSet struct {
	seen map[string]bool
	list []string
}

func (vs *valueSet) add(s string) {
	if s = strings.TrimSpace(s); s == "" || vs.seen[s] {
		return
	}
	if vs.seen == nil {
		vs.seen = map[string]bool{}
	}
	vs.seen[s] = true
	vs.list = append(vs.list, s)
}

func (v *vocabulary) add(rec sdk.Record) error {
	v.projects.add(stringField(&rec, "project"))
	v.states.add(stringField(&rec, "status"))
	labels, _ := rec.Fields["labels"].([]string)
	for _, l := range labels {
		v.labels.add(l)
	}
	v.authors.add(rec.Author)
	if t := rec.Time; !t.IsZero() {
		if v.earliest.IsZero() || t.Before(v.earliest) {
			v.earliest = t
		}
		if t.After(v.latest) {
			v.latest = t
		}
	}
	return nil
}

// ground answers one term with the values matching it as canonical forms.
func (v *vocabulary) ground(t sdk.Term) sdk.GroundedTerm {
	g := sdk.GroundedTerm{Kind: t.Kind, Value: t.Value}
	var forms []string
	switch t.Kind {
	case sdk.TermProject:
		forms = v.projects.matching(func(p string) bool { return strings.EqualFold(p, strings.TrimSpace(t.Value)) })
	case sdk.TermLabel:
		forms = v.labels.matching(func(l string) bool { return strings.EqualFold(l, strings.TrimSpace(t.Value)) })
	case sdk.TermState:
		want := normalStatus(t.Value)
		f := filter{statuses: map[string]bool{want: true}}
		forms = v.states.matching(func(s string) bool { return f.matchStatus(normalStatus(s)) })
		if len(forms) > 0 && (want == "resolved" || want == "unresolved") && !slices.ContainsFunc(forms, func(s string) bool { return normalStatus(s) == want }) {
			g.Note = "a group of statuses"
		}
	case sdk.TermAuthor:
		want := strings.ToLower(strings.TrimSpace(t.Value))
		forms = v.authors.matching(func(a string) bool { return strings.Contains(strings.ToLower(a), want) })
	default:
		g.Note = "the file source grounds project, state, label and author terms only"
		return g
	}
	if len(forms) == 0 {
		g.Note = "no record in the files has this " + t.Kind
		return g
	}
	slices.Sort(forms)
	if len(forms) > sdk.MaxCanonical {
		g.Note = strings.TrimPrefix(g.Note+"; ", "; ") + fmt.Sprintf("the first %d of %d matches", sdk.MaxCanonical, len(forms))
		forms = forms[:sdk.MaxCanonical]
	}
	g.Known, g.Canonical = true, forms
	return g
}

// matching returns the values keep accepts.
func (vs *valueSet) matching(keep func(string) bool) []string {
	var out []string
	for _, s := range vs.list {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// coverageName is what the files are for a report: the path as configured,
// or the directory's own name for documentation ("hcl", not ".").
func coverageName(cfg config) string {
	if cfg.Format == FormatMarkdown {
		if abs, err := filepath.Abs(cfg.Path); err == nil {
			return filepath.Base(abs)
		}
	}
	return cfg.shown
}
