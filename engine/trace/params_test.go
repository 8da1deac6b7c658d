package trace

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Params marshal byte for byte as the map of them did, with and without
// HTML escaping and indented.
func TestParamsMarshalLikeAMap(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params Params
	}{
		{"one", Params{{"step", "h0"}}},
		{"sorted", Params{{"workers", 4}, {"ttl", "5m0s"}, {"max_passes", 3}}},
		{"html and separators", Params{{"step", "a<b>&c\u2028"}, {"op", "MODIFY"}}},
		{"kinds", Params{{"n", 1.5}, {"ok", true}, {"list", []string{"x"}}, {"none", nil}}},
		{"keys escaped", Params{{"a\"b", 1}, {"<k>", 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := map[string]any{}
			for _, p := range tc.params {
				m[p.Key] = p.Value
			}
			for _, escape := range []bool{true, false} {
				want := encode(t, struct {
					P map[string]any `json:"parameters,omitempty"`
				}{m}, escape)
				got := encode(t, struct {
					P Params `json:"parameters,omitempty"`
				}{tc.params}, escape)
				assert.Equal(t, string(got), string(want), "escape HTML %v", escape)
			}
			want, err := json.Marshal(m)
			require.NoError(t, err)
			got, err := json.Marshal(tc.params)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))

			var back Params
			require.NoError(t, json.Unmarshal(got, &back))
			var wantBack map[string]any
			require.NoError(t, json.Unmarshal(want, &wantBack))
			assert.Len(t, back, len(wantBack))
			for _, p := range back {
				assert.Equal(t, wantBack[p.Key], p.Value, "key %q", p.Key)
			}
			assert.True(t, slices.IsSortedFunc(back, func(a, b Param) int { return strings.Compare(a.Key, b.Key) }))
		})
	}
}

func TestUpdateMergesParams(t *testing.T) {
	tr := New(fixedClock)
	id := tr.Add(Entry{Parameters: Params{{"step", "h0"}, {"pass", 1}}})
	before := tr.Entries()
	require.NoError(t, tr.Update(id, Update{Parameters: Params{{"pass", 2}, {"attempt", 1}}}))
	assert.Equal(t, Params{{"step", "h0"}, {"pass", 2}, {"attempt", 1}}, tr.Entries()[0].Parameters)
	assert.Equal(t, Params{{"step", "h0"}, {"pass", 1}}, before[0].Parameters, "a copy handed out keeps its parameters")
}

func TestCloseHandsOverTheEntries(t *testing.T) {
	tr := New(fixedClock)
	tr.Grow(2)
	tr.Add(Entry{Thought: "a"})
	tr.Add(Entry{Thought: "b"})
	got := tr.Close()
	require.Len(t, got, 2)
	assert.Equal(t, "e2", got[1].ID)
	assert.Equal(t, 0, tr.Len())
	assert.Error(t, tr.Update("e1", Update{Outcome: Failed}), "the trace no longer holds the entries")
	assert.Equal(t, Pending, got[0].Outcome)
}

func encode(t *testing.T, v any, escapeHTML bool) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(v))
	return b.Bytes()
}
