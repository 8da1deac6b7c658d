package jsonindent

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encoded is v as encoding/json writes it without HTML escaping.
func encoded(t testing.TB, v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

var jsonStrings = []string{
	"", "plain", `quote " and \ backslash`, "<html> & 'apos'", "tab\tnew\nline\rcr\bbs\fff",
	"\x00\x01\x1f\x7f", "ünïcödé 日本語 🎉", "bad \xff utf-8 \xc3", "\xe2\x80", "line\u2028sep\u2029para",
	"\\u2028 spelled", `{"json":[1,2]}`,
}

func TestAppendStringAsEncodingJSON(t *testing.T) {
	for _, s := range jsonStrings {
		assert.Equal(t, encoded(t, s), string(AppendString(nil, s)), "%q", s)
	}
	for c := range 256 {
		s := string([]byte{'a', byte(c), 'z'})
		assert.Equal(t, encoded(t, s), string(AppendString(nil, s)), "%q", s)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range jsonStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), encoded(t, s); got != want {
			t.Fatalf("%q: %s, encoding/json writes %s", s, got, want)
		}
	})
}

func TestFloatAsEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 0.85, 1.0 / 3, 1e-6, 9.99e-7, 1e-7, 1.5e-9, 1e20, 1e21, 123456789e15, -2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		w := NewWriter(nil, false)
		w.Float(f)
		got, err := w.Bytes()
		require.NoError(t, err)
		assert.Equal(t, encoded(t, f), string(got), "%v", f)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		w := NewWriter(nil, false)
		w.Float(f)
		_, err := w.Bytes()
		_, want := json.Marshal(f)
		require.Error(t, want)
		assert.EqualError(t, err, want.Error())
	}
}

// TestWriterAsEncodingJSON writes values through every method of Writer,
// compact and indented, and compares them with encoding/json's bytes.
func TestWriterAsEncodingJSON(t *testing.T) {
	type inner struct {
		S  string            `json:"s"`
		SS []string          `json:"ss"`
		M  map[string]string `json:"m"`
	}
	type doc struct {
		Empty   map[string][]string `json:"empty"`
		Nil     map[string][]string `json:"nil"`
		Map     map[string][]string `json:"map"`
		Floats  map[string]float64  `json:"floats"`
		Arr     []string            `json:"arr"`
		NilArr  []string            `json:"nil_arr"`
		Nested  []inner             `json:"nested"`
		Raw     any                 `json:"raw"`
		N       int                 `json:"n"`
		B       bool                `json:"b"`
		F       float64             `json:"f"`
		Nothing *int                `json:"nothing"`
	}
	keys := map[string][]string{"b": {"x", "<y>"}, "a": {}, "c\u2028": nil}
	for k := range 20 { // more keys than the Writer sorts on the stack
		keys[string(rune('d'+k))] = []string{"v"}
	}
	d := doc{
		Empty: map[string][]string{}, Map: keys, Floats: map[string]float64{"z": 0.5, "y": 1e-9},
		Arr: []string{}, Nested: []inner{{S: "a&b", SS: []string{"q"}, M: map[string]string{"k": "v"}}, {}},
		Raw: map[string]any{"a": []any{1, map[string]any{}, []any{"<"}}}, N: -3, B: true, F: 0.25,
	}
	write := func(w *Writer) {
		w.BeginObject()
		w.Key("empty")
		w.StringsMap(d.Empty)
		w.Key("nil")
		w.StringsMap(d.Nil)
		w.Key("map")
		w.StringsMap(d.Map)
		w.Key("floats")
		w.FloatMap(d.Floats)
		w.Key("arr")
		w.Strings(d.Arr)
		w.Key("nil_arr")
		w.Strings(d.NilArr)
		w.Key("nested")
		w.BeginArray()
		for _, in := range d.Nested {
			w.BeginObject()
			w.Key("s")
			w.String(in.S)
			w.Key("ss")
			w.Strings(in.SS)
			w.Key("m")
			w.StringMap(in.M)
			w.EndObject()
		}
		w.EndArray()
		w.Key("raw")
		w.Marshal(d.Raw)
		w.Key("n")
		w.Int(d.N)
		w.Key("b")
		w.Bool(d.B)
		w.Key("f")
		w.Float(d.F)
		w.Key("nothing")
		w.Null()
		w.EndObject()
	}
	compact := NewWriter(nil, false)
	write(compact)
	got, err := compact.Bytes()
	require.NoError(t, err)
	assert.Equal(t, encoded(t, d), string(got))

	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(d))
	indented := NewWriter(nil, true)
	write(indented)
	got, err = indented.Bytes()
	require.NoError(t, err)
	assert.Equal(t, want.String(), string(got)+"\n")
}
