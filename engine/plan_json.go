package engine

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/nous-dev/nous/engine/jsonindent"
)

// MarshalJSON writes the filters as an object whose keys keep the rule's order.
func (f Filters) MarshalJSON() ([]byte, error) {
	w := jsonindent.NewWriter(make([]byte, 0, 64), false)
	f.writeJSON(w)
	return w.Bytes()
}

func (f Filters) writeJSON(w *jsonindent.Writer) {
	w.BeginObject()
	for _, filter := range f {
		w.Key(filter.Key)
		writeStrings(w, filter.Values)
	}
	w.EndObject()
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
	w := jsonindent.NewWriter(make([]byte, 0, 128), false)
	m.writeJSON(w)
	return w.Bytes()
}

func (m DependencyMap) writeJSON(w *jsonindent.Writer) {
	w.BeginObject()
	w.Key("nodes")
	writeStrings(w, m.Nodes)
	w.Key("edges")
	w.BeginObject()
	for _, n := range m.Nodes {
		if to := m.Edges[n]; len(to) > 0 {
			w.Key(n)
			writeStrings(w, to)
		}
	}
	w.EndObject()
	w.EndObject()
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

// writeStrings writes ss as an array of strings, [] when nil.
func writeStrings(w *jsonindent.Writer, ss []string) {
	if ss == nil {
		ss = []string{}
	}
	w.Strings(ss)
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
