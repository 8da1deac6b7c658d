package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFiltersAndDependencyMapJSON(t *testing.T) {
	f := Filters{{Key: "b<", Values: []string{"x\"y", "\u2028"}}, {Key: "a", Values: nil}}
	got, err := json.Marshal(f)
	require.NoError(t, err)
	assert.Equal(t, `{"b\u003c":["x\"y","\u2028"],"a":[]}`, string(got), "json.Marshal escapes HTML in a marshaler's output")
	raw, err := f.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"b<":["x\"y","\u2028"],"a":[]}`, string(raw))
	m := DependencyMap{Nodes: []string{"h0", "h1", "h2"}, Edges: map[string][]string{"h0": {"h1", "h2"}, "h1": {}}}
	raw, err = m.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"nodes":["h0","h1","h2"],"edges":{"h0":["h1","h2"]}}`, string(raw))
	raw, err = DependencyMap{}.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `{"nodes":[],"edges":{}}`, string(raw))
}
