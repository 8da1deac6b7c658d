package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPromptFuncs(t *testing.T) {
	type record struct {
		Title string `json:"title"`
		Tags  []int  `json:"tags"`
	}
	data := map[string]any{
		"Names":  []string{"a", "b", "c"},
		"Counts": []int{1, 2},
		"Input":  record{Title: "<fix> & ship", Tags: []int{1}},
		"Body":   "héllo wörld",
		"Draft":  "line one\n\nline two\n",
		"Query":  "Which Commits?",
		"Func":   func() {},
		"None":   []string{},
	}
	tests := []struct {
		name, template, want, err string
	}{
		{"join strings", `{{join ", " .Names}}`, "a, b, c", ""},
		{"join piped ints", `{{.Counts | join "+"}}`, "1+2", ""},
		{"join of a non-list", `{{join ", " .Query}}`, "", "join: a list is required, got string"},
		{"join empty list", `{{join ", " .None}}`, "", ""},
		{"json without HTML escaping", `{{json .Input}}`, `{"title":"<fix> & ship","tags":[1]}`, ""},
		{"json error", `{{json .Func}}`, "", "json: json: unsupported type"},
		{"upper", `{{upper .Query}}`, "WHICH COMMITS?", ""},
		{"lower", `{{.Query | lower}}`, "which commits?", ""},
		{"trim", `{{trim "  x \n"}}`, "x", ""},
		{"truncate cuts runes", `{{.Body | truncate 4}}`, "héll…", ""},
		{"truncate keeps short", `{{.Body | truncate 40}}`, "héllo wörld", ""},
		{"truncate zero", `{{truncate 0 .Body}}`, "…", ""},
		{"indent skips empty lines", `{{.Draft | indent 2}}`, "  line one\n\n  line two\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "prompt \"writer\" {\n  template = <<EOT\n" + tt.template + "\nEOT\n}\n"
			rs, diags := Parse("p.hcl", []byte(src))
			require.Empty(t, diags, diags.Error())
			var b strings.Builder
			err := rs.Prompt("writer").Parsed.Execute(&b, data)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want+"\n", b.String())
		})
	}
}

func TestPromptFuncsAreFresh(t *testing.T) {
	a := PromptFuncs()
	a["upper"] = strings.ToLower
	delete(a, "join")
	b := PromptFuncs()
	assert.Contains(t, b, "join")
	assert.Equal(t, "X", b["upper"].(func(string) string)("x"))
}

func TestPromptUnknownFunction(t *testing.T) {
	_, diags := Parse("p.hcl", []byte("prompt \"writer\" {\n  template = \"{{shout .Query}}\"\n}\n"))
	require.Len(t, diags, 1)
	assert.Equal(t, CheckTemplate, CheckName(diags[0]))
	assert.Contains(t, diags[0].Detail, `function "shout" not defined`)
	assert.Equal(t, 2, diags[0].Subject.Start.Line)
}
