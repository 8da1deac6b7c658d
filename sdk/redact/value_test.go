package redact

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

type label string

type node struct {
	Name     string
	Label    label
	Tags     []string
	Attrs    map[string]any
	Raw      json.RawMessage
	Err      error
	Next     *node
	Skipped  string `redact:"-"`
	private  string
	Count    int
	Children [2]*node
}

func TestValueMasksEveryString(t *testing.T) {
	r := New("tok-123456")
	in := &node{Name: "a tok-123456", Label: "tok-123456", Tags: []string{"x", "tok-123456"},
		Attrs: map[string]any{"tok-123456": []any{"y tok-123456", 3}}, Raw: json.RawMessage(`{"k":"tok-\u0031\u00323456"}`),
		Err: fmt.Errorf("401 tok-123456: %w", sdk.ErrUnauthorized), Skipped: "tok-123456", private: "tok-123456", Count: 7}
	in.Next = in // a cycle stays a cycle
	out := Value(r, in)

	assert.Equal(t, "a [REDACTED]", out.Name)
	assert.Equal(t, label("[REDACTED]"), out.Label)
	assert.Equal(t, []string{"x", "[REDACTED]"}, out.Tags)
	assert.Equal(t, map[string]any{"[REDACTED]": []any{"y [REDACTED]", 3}}, out.Attrs)
	assert.JSONEq(t, `{"k":"[REDACTED]"}`, string(out.Raw), "decoded JSON escapes are masked")
	assert.Equal(t, "401 [REDACTED]: unauthorized", out.Err.Error())
	assert.ErrorIs(t, out.Err, sdk.ErrUnauthorized)
	assert.Same(t, out, out.Next)
	assert.Equal(t, "tok-123456", out.Skipped, `redact:"-" is left alone`)
	assert.Equal(t, 7, out.Count)

	assert.Equal(t, "a tok-123456", in.Name, "the argument is left alone")
	assert.Equal(t, "y tok-123456", in.Attrs["tok-123456"].([]any)[0])

	assert.Same(t, in, Value((*Redactor)(nil), in), "nothing to mask: v itself")
	var nilErr error
	assert.NoError(t, Value(r, nilErr))
	assert.Equal(t, "[REDACTED]", Value[any](r, "tok-123456"))
}

// Text encoded before it reaches the Redactor (an error that %q-quotes a
// value, a label already escaped) is still caught in every spelling of the
// encoders nous writes.
func TestStringCatchesEncodedSpellings(t *testing.T) {
	secret := "Sec\"ret<Tok>&en9'\\x\n%ü"
	r := New(secret)
	jsonNoHTML := func(s string) string {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(s))
		return strings.TrimSpace(b.String())
	}
	jsonHTML, err := json.Marshal(secret)
	require.NoError(t, err)
	var xmlAttrOut strings.Builder
	require.NoError(t, xml.EscapeText(&xmlAttrOut, []byte(secret)))
	for name, spelled := range map[string]string{
		"raw": secret, "%q": strconv.Quote(secret), "%+q": strconv.QuoteToASCII(secret), "json": string(jsonHTML),
		"json without HTML escaping": jsonNoHTML(secret), "html": html.EscapeString(secret), "xml": xmlAttrOut.String(),
		"query": url.QueryEscape(secret), "path": url.PathEscape(secret),
		"github": strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(secret),
	} {
		got := r.String("before " + spelled + " after")
		assert.NotContains(t, got, "en9", name)
		assert.Contains(t, got, Mask, name)
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain title":               "plain title",
		"PAY-1\n## Forged":          "PAY-1 ## Forged",
		"a\r\nb\tc\u2028d":          "a  b c d",
		"\x1b]0;owned\x07 x \u009b": "\uFFFD]0;owned\uFFFD x \uFFFD",
	} {
		assert.Equal(t, want, OneLine(in), "%q", in)
	}
	rec := OneLineFields(sdk.Record{ID: "1\n# x", URL: "https://x/\n) [c](https://e)", Body: "keeps\nlines"})
	assert.Equal(t, "1 # x", rec.ID)
	assert.Equal(t, "https://x/%20%29%20%5Bc%5D%28https://e%29", rec.URL)
	assert.Equal(t, "keeps\nlines", rec.Body)
}

func TestValueOfErrorsInAny(t *testing.T) {
	out := Value(New("tok-123456"), map[string]any{"e": errors.New("tok-123456 x")})
	assert.EqualError(t, out["e"].(error), "[REDACTED] x")
}

// A value is copied only where a secret was masked: what holds none is
// shared with the copy, and a value without any comes back as it is.
func TestValueCopiesOnlyWhatChanged(t *testing.T) {
	r := New("tok-123456")
	clean := &node{Name: "a", Tags: []string{"x"}, Attrs: map[string]any{"k": []any{"v"}}, Raw: json.RawMessage(`{"k":1}`)}
	clean.Next = clean
	assert.Same(t, clean, Value(r, clean))

	in := &node{Name: "a", Tags: []string{"x", "y"}, Attrs: map[string]any{"k": "v"},
		Children: [2]*node{{Name: "clean"}, {Name: "tok-123456"}}}
	out := Value(r, in)
	require.NotSame(t, in, out)
	assert.Same(t, in.Children[0], out.Children[0], "a clean child is shared")
	assert.NotSame(t, in.Children[1], out.Children[1])
	assert.Equal(t, "[REDACTED]", out.Children[1].Name)
	assert.Equal(t, "tok-123456", in.Children[1].Name, "the argument is left alone")
	assert.Same(t, &in.Tags[0], &out.Tags[0], "a clean slice is shared")
	assert.Equal(t, reflect.ValueOf(in.Attrs).Pointer(), reflect.ValueOf(out.Attrs).Pointer(), "a clean map is shared")

	withSecret := map[string]string{"tok-123456": "x", "b": "tok-123456 y", "c": "z"}
	assert.Equal(t, map[string]string{"[REDACTED]": "x", "b": "[REDACTED] y", "c": "z"}, Value(r, withSecret))
	assert.Equal(t, "tok-123456 y", withSecret["b"], "the argument is left alone")
}

// A cycle through a pointer whose target is masked leads to the copy.
func TestValueCycleWithSecret(t *testing.T) {
	a := &node{Name: "a"}
	b := &node{Name: "tok-123456", Next: a}
	a.Next = b
	out := Value(New("tok-123456"), a)
	assert.Equal(t, "[REDACTED]", out.Next.Name)
	assert.Same(t, out, out.Next.Next, "the cycle stays a cycle of copies")
	assert.Same(t, b, a.Next, "the argument is left alone")
	assert.Equal(t, "tok-123456", b.Name)
}

// Types are described once, from many goroutines at a time.
func TestValueConcurrent(t *testing.T) {
	type fresh struct {
		A []map[string]*node
		B any
	}
	r := New("tok-123456")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			out := Value(r, fresh{A: []map[string]*node{{"k": {Name: "tok-123456"}}}, B: "tok-123456"})
			assert.Equal(t, "[REDACTED]", out.A[0]["k"].Name)
			assert.Equal(t, "[REDACTED]", out.B)
		})
	}
	wg.Wait()
}

// BenchmarkValueClean walks a value holding no secret, the common case of
// a rendered plan: nothing is copied.
func BenchmarkValueClean(b *testing.B) {
	r := New("tok-123456")
	in := &node{Name: "a", Tags: []string{"x", "y", "z"}, Attrs: map[string]any{"k": []any{"v", 3.0}}}
	for i := range in.Children {
		in.Children[i] = &node{Name: "child", Tags: []string{"p", "q"}}
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Value(r, in)
	}
}

// TestValueCommonShapes: the maps and interface values walked without
// reflection (a record's fields, a step's filters) are masked in keys and
// values, and come back as they are when they hold no secret.
func TestValueCommonShapes(t *testing.T) {
	r := New("tok-123456")
	type holder struct {
		Fields  map[string]any
		Filters map[string][]string
		Labels  map[string]string
		Any     any
	}
	tests := []struct {
		name    string
		in, out holder
	}{
		{"string field", holder{Fields: map[string]any{"a": "x tok-123456", "n": int64(3)}}, holder{Fields: map[string]any{"a": "x [REDACTED]", "n": int64(3)}}},
		{"field key", holder{Fields: map[string]any{"tok-123456": 1.5}}, holder{Fields: map[string]any{"[REDACTED]": 1.5}}},
		{"string list field", holder{Fields: map[string]any{"l": []string{"ok", "tok-123456"}, "b": true, "z": nil}},
			holder{Fields: map[string]any{"l": []string{"ok", "[REDACTED]"}, "b": true, "z": nil}}},
		{"filters", holder{Filters: map[string][]string{"q": {"tok-123456"}}}, holder{Filters: map[string][]string{"q": {"[REDACTED]"}}}},
		{"filter key", holder{Filters: map[string][]string{"tok-123456": nil}}, holder{Filters: map[string][]string{"[REDACTED]": nil}}},
		{"labels", holder{Labels: map[string]string{"k": "tok-123456"}}, holder{Labels: map[string]string{"k": "[REDACTED]"}}},
		{"interface string", holder{Any: "tok-123456"}, holder{Any: "[REDACTED]"}},
		{"interface list", holder{Any: []string{"tok-123456"}}, holder{Any: []string{"[REDACTED]"}}},
		{"interface error", holder{Any: errors.New("tok-123456")}, holder{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Value(r, tt.in)
			if tt.name == "interface error" {
				assert.Equal(t, "[REDACTED]", out.Any.(error).Error())
				return
			}
			assert.Equal(t, tt.out, out)
		})
	}
	clean := holder{Fields: map[string]any{"a": "x", "l": []string{"y"}, "n": 1}, Filters: map[string][]string{"q": {"v"}}, Labels: map[string]string{"k": "v"}, Any: "s"}
	out := Value(r, clean)
	assert.Equal(t, reflect.ValueOf(clean.Fields).Pointer(), reflect.ValueOf(out.Fields).Pointer(), "shared, not copied")
	assert.Equal(t, reflect.ValueOf(clean.Filters).Pointer(), reflect.ValueOf(out.Filters).Pointer())
}
