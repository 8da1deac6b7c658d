package engine

// extractEntities runs the entity rules over the query (see
// rules.Entity.Extract). The result is never nil.
func (p *Planner) extractEntities(query string) map[string][]string {
	out := make(map[string][]string)
	if query == "" {
		return out
	}
	for _, e := range p.rules.Entities {
		if values := e.Extract(query, nil); len(values) > 0 {
			out[e.Name] = values
		}
	}
	return out
}
