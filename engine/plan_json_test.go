package engine

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encoded is s as encoding/json writes it without HTML escaping.
func encoded(t testing.TB, s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(s))
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

var jsonStrings = []string{
	"", "plain", `quote " and \ backslash`, "<html> & 'apos'", "tab\tnew\nline\rcr\bbs\fff",
	"\x00\x01\x1f\x7f", "ünïcödé 日本語 🎉", "bad \xff utf-8 \xc3", "\xe2\x80", "line\u2028sep\u2029para",
	"\\u2028 spelled", `{"json":[1,2]}`,
}

func TestAppendJSONStringAsEncodingJSON(t *testing.T) {
	for _, s := range jsonStrings {
		assert.Equal(t, encoded(t, s), string(appendJSONString(nil, s)), "%q", s)
	}
	for c := range 256 {
		s := string([]byte{'a', byte(c), 'z'})
		assert.Equal(t, encoded(t, s), string(appendJSONString(nil, s)), "%q", s)
	}
}

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

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range jsonStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendJSONString(nil, s)), encoded(t, s); got != want {
			t.Fatalf("%q: %s, encoding/json writes %s", s, got, want)
		}
	})
}
