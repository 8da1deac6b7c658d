package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MarshalJSON writes the filters as an object whose keys keep the rule's order.
func (f Filters) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, filter := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeJSON(&b, filter.Key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := writeJSON(&b, nonNil(filter.Values)); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a filters object, keeping its key order.
func (f *Filters) UnmarshalJSON(data []byte) error {
	var out Filters
	err := decodeOrderedObject(data, func(key string, dec *json.Decoder) error {
		var values []string
		if err := dec.Decode(&values); err != nil {
			return fmt.Errorf("filter %q: %w", key, err)
		}
		out = append(out, Filter{Key: key, Values: values})
		return nil
	})
	if err != nil {
		return err
	}
	if out == nil {
		out = Filters{}
	}
	*f = out
	return nil
}

// MarshalJSON writes nodes and edges; edges are keyed in node order and only
// nodes with dependents appear, as in the source documents.
func (m DependencyMap) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"nodes":`)
	if err := writeJSON(&b, nonNil(m.Nodes)); err != nil {
		return nil, err
	}
	b.WriteString(`,"edges":{`)
	first := true
	for _, n := range m.Nodes {
		to, ok := m.Edges[n]
		if !ok || len(to) == 0 {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		if err := writeJSON(&b, n); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := writeJSON(&b, to); err != nil {
			return nil, err
		}
	}
	b.WriteString("}}")
	return b.Bytes(), nil
}

// UnmarshalJSON reads nodes and edges.
func (m *DependencyMap) UnmarshalJSON(data []byte) error {
	var raw struct {
		Nodes []string            `json:"nodes"`
		Edges map[string][]string `json:"edges"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	m.Nodes, m.Edges = nonNil(raw.Nodes), raw.Edges
	if m.Edges == nil {
		m.Edges = map[string][]string{}
	}
	return nil
}

// writeJSON appends v without HTML escaping, so query strings stay readable.
func writeJSON(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode ends with a newline
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// decodeOrderedObject calls each for every key of a JSON object, in order,
// with the decoder positioned at the key's value.
func decodeOrderedObject(data []byte, each func(key string, dec *json.Decoder) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("expected an object, got %v", tok)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if err := each(tok.(string), dec); err != nil {
			return err
		}
	}
	_, err = dec.Token()
	return err
}
