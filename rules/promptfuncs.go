package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"text/template"
	"unicode/utf8"
)

// PromptFuncs returns the functions prompt templates may call besides
// text/template's built-ins: join, json, upper, lower, trim, truncate and
// indent. They are pure. The map is new on every call, so callers may add
// to it.
func PromptFuncs() template.FuncMap {
	return template.FuncMap{
		"join":     join,
		"json":     toJSON,
		"upper":    strings.ToUpper,
		"lower":    strings.ToLower,
		"trim":     strings.TrimSpace,
		"truncate": truncate,
		"indent":   indent,
	}
}

// join joins the elements of a list (any slice or array), each formatted
// as by fmt.Sprint, with sep: {{join ", " .Names}} or {{.Names | join ", "}}.
func join(sep string, list any) (string, error) {
	if ss, ok := list.([]string); ok {
		return strings.Join(ss, sep), nil
	}
	v := reflect.ValueOf(list)
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return "", fmt.Errorf("join: a list is required, got %T", list)
	}
	var b strings.Builder
	for i := range v.Len() {
		if i > 0 {
			b.WriteString(sep)
		}
		fmt.Fprint(&b, v.Index(i).Interface())
	}
	return b.String(), nil
}

// toJSON renders v as compact JSON, without HTML escaping (a prompt is not
// HTML): {{json .Input}}.
func toJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("json: %w", err)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// truncate keeps the first n runes of s, marking a cut with "…":
// {{.Body | truncate 200}}.
func truncate(n int, s string) string {
	if n < 0 {
		n = 0
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

// indent puts n spaces before every non-empty line of s:
// {{.Draft | indent 4}}.
func indent(n int, s string) string {
	pad := strings.Repeat(" ", max(n, 0))
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	b.Grow(len(s) + len(lines)*len(pad))
	for _, line := range lines {
		if line != "" && line != "\n" {
			b.WriteString(pad)
		}
		b.WriteString(line)
	}
	return b.String()
}
