package trace

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// Params are an entry's parameters, each key once. They marshal as the
// JSON object a map of them would (keys sorted) and unmarshal from one.
type Params []Param

// Param is one named parameter of an entry.
type Param struct {
	Key   string
	Value any
}

// merge returns ps with u's parameters set: a key ps has takes u's value.
// It copies, so entries handed out by Entries keep the parameters they had.
func (ps Params) merge(u Params) Params {
	out := slices.Grow(slices.Clone(ps), len(u))
	for _, p := range u {
		if i := slices.IndexFunc(out, func(q Param) bool { return q.Key == p.Key }); i >= 0 {
			out[i].Value = p.Value
		} else {
			out = append(out, p)
		}
	}
	return out
}

// MarshalJSON writes the parameters as an object with sorted keys. It
// escapes no HTML: an encoder that does escapes the whole object, as it
// would a map's.
func (ps Params) MarshalJSON() ([]byte, error) {
	sorted := slices.SortedFunc(slices.Values(ps), func(a, b Param) int { return strings.Compare(a.Key, b.Key) })
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, p := range sorted {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(p.Key); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode ends each value with a newline
		b.WriteByte(':')
		if err := enc.Encode(p.Value); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object, its keys sorted, its values as a map's
// would be.
func (ps *Params) UnmarshalJSON(b []byte) error {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	out := make(Params, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, Param{Key: k, Value: m[k]})
	}
	*ps = out
	return nil
}
