package engine

import "strings"

// extractEntities runs the entity rules over the query. A pattern's value is
// its first capture group when that group matched, else the whole match;
// values keep first-seen order without duplicates. The result is never nil.
func (p *Planner) extractEntities(query string) map[string][]string {
	out := make(map[string][]string)
	if query == "" {
		return out
	}
	for _, e := range p.entities {
		var values []string
		for _, re := range e.Patterns {
			for _, m := range re.FindAllStringSubmatchIndex(query, -1) {
				lo, hi := m[0], m[1]
				if len(m) >= 4 && m[2] >= 0 && m[3] > m[2] {
					lo, hi = m[2], m[3]
				}
				v := strings.TrimSpace(query[lo:hi])
				if v != "" && !contains(values, v) {
					values = append(values, v)
				}
			}
		}
		if len(values) > 0 {
			out[e.Name] = values
		}
	}
	return out
}

func contains(values []string, v string) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}
