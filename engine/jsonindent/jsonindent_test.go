package jsonindent

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// indent writes what json.Indent writes for the compact JSON encoding/json
// produces.
func TestIndentAsEncodingJSON(t *testing.T) {
	for _, v := range []any{
		map[string]any{},
		[]any{},
		map[string]any{"a": []any{}, "b": map[string]any{}, "c": []any{1, "x", nil, true, map[string]any{"d": []any{[]any{}}}}},
		[]string{`quote " inside`, `backslash \`, `\"`, `\\"`, "ctl \x01\n\t", "{[,:]}", "<&>", "\u2028 ü \xff"},
		"top-level string",
		3.5,
		nil,
		deep(20), // beyond the indentation newline keeps ready
	} {
		var compact bytes.Buffer
		enc := json.NewEncoder(&compact)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(v))
		var want bytes.Buffer
		require.NoError(t, json.Indent(&want, compact.Bytes(), "", "  "))
		assert.Equal(t, want.String(), string(indent(nil, compact.Bytes(), 0)), "%#v", v)
	}
}

// deep is a value nested n objects and arrays deep.
func deep(n int) any {
	var v any = "leaf"
	for i := range n {
		if i%2 == 0 {
			v = []any{v, 1}
		} else {
			v = map[string]any{"k": v}
		}
	}
	return v
}

func FuzzIndent(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":"\"\\"}],"c":{}}`, `"x\\"`, `[[],[{}]]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(s)) != nil {
			return
		}
		var want bytes.Buffer
		require.NoError(t, json.Indent(&want, compact.Bytes(), "", "  "))
		assert.Equal(t, want.String(), string(indent(nil, compact.Bytes(), 0)))
	})
}
