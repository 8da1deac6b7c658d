package engine

import (
	"slices"

	"github.com/nous-dev/nous/rules"
	"github.com/nous-dev/nous/rules/cond"
	"github.com/nous-dev/nous/sdk/timerange"
)

// extractEntities runs the entity rules over the query (see
// rules.Entity.Extract). Entities with a built-in finder run first; a
// pattern entity's value that overlaps a finder's match is dropped, so a
// date phrase ("Q1 2024", "in 2025") is not also read as a project or a
// path. The result is never nil.
func (p *Planner) extractEntities(text cond.Text) map[string][]string {
	out := make(map[string][]string)
	query := text.String()
	if query == "" {
		return out
	}
	var taken []rules.Span
	for _, e := range p.rules.Entities {
		if e.Finder == "" {
			continue
		}
		var values []string
		for _, m := range find(e.Finder, query) {
			taken = append(taken, rules.Span{Start: m.Start, End: m.End})
			if !e.Ignored(m.Text) && !slices.Contains(values, m.Text) {
				values = append(values, m.Text)
			}
		}
		if len(values) > 0 {
			out[e.Name] = values
		}
	}
	for _, e := range p.rules.Entities {
		if e.Finder != "" {
			continue
		}
		if values := e.ExtractOutside(text, taken, nil); len(values) > 0 {
			out[e.Name] = values
		}
	}
	return out
}

// find runs the built-in finder named name (one of rules.Finders).
func find(name, query string) []timerange.Match {
	switch name {
	case rules.FinderDates:
		return timerange.Find(query)
	}
	return nil
}
