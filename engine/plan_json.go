package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// MarshalJSON writes the filters as an object whose keys keep the rule's order.
func (f Filters) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 64)
	b = append(b, '{')
	for i, filter := range f {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, filter.Key)
		b = append(b, ':')
		b = appendJSONStrings(b, filter.Values)
	}
	return append(b, '}'), nil
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
	b := make([]byte, 0, 128)
	b = append(b, `{"nodes":`...)
	b = appendJSONStrings(b, m.Nodes)
	b = append(b, `,"edges":{`...)
	first := true
	for _, n := range m.Nodes {
		to, ok := m.Edges[n]
		if !ok || len(to) == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, n)
		b = append(b, ':')
		b = appendJSONStrings(b, to)
	}
	return append(b, "}}"...), nil
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

// appendJSONStrings appends ss as a JSON array of strings ([] when nil).
func appendJSONStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// appendJSONString appends s quoted as encoding/json quotes a string
// without HTML escaping, so query strings stay readable: '"', '\\' and
// control characters escaped, invalid UTF-8 as \ufffd, U+2028 and U+2029
// escaped (JavaScript reads them as line ends).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
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
