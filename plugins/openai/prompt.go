package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nous-dev/nous/plugins/internal/text"
	"github.com/nous-dev/nous/sdk"
)

// bodyChars bounds each record's body in the prompt.
const bodyChars = 600

// messages builds the conversation: the rendered role prompt as the system
// message; the role input and the context records as the user message.
// Without json_schema enforcement the schema is spelled out instead.
func messages(req sdk.InvokeRequest, format string, maxContextChars int) []chatMessage {
	system := strings.TrimSpace(req.Instructions)
	if system == "" {
		system = fmt.Sprintf("You are the %s agent of nous, a reasoning engine that answers questions about software projects from evidence records.", req.Role)
	}
	if format != FormatJSONSchema || len(req.Schema) == 0 {
		system += "\n\nRespond with a single JSON object and nothing else."
		if len(req.Schema) > 0 {
			system += " It must match this JSON Schema:\n" + string(compactJSON(req.Schema))
		}
	}
	var user strings.Builder
	user.WriteString("Input (JSON):\n")
	input := compactJSON(req.Input)
	if len(input) == 0 {
		input = []byte("{}")
	}
	user.Write(input)
	fmt.Fprintf(&user, "\n\nContext records (%d):\n", len(req.Context))
	user.WriteString(renderRecords(req.Context, maxContextChars))
	return []chatMessage{{Role: "system", Content: system}, {Role: "user", Content: user.String()}}
}

// renderRecords writes one compact block per record, in the order given
// (the engine has ranked them), until the budget is spent.
func renderRecords(records []sdk.Record, budget int) string {
	var b strings.Builder
	for i, r := range records {
		block := renderRecord(r)
		if b.Len()+len(block) > budget {
			fmt.Fprintf(&b, "(%d more records left out to fit the prompt budget)\n", len(records)-i)
			break
		}
		b.WriteString(block)
	}
	return b.String()
}

// renderRecord is "- [id] kind · source (tier N) · author · time · url",
// then the title, the body excerpt and the extra fields, indented.
func renderRecord(r sdk.Record) string {
	head := []string{r.Kind, r.Source + tierText(r.Tier)}
	if r.Author != "" {
		head = append(head, r.Author)
	}
	if !r.Time.IsZero() {
		head = append(head, r.Time.UTC().Format(time.RFC3339))
	}
	if r.URL != "" {
		head = append(head, r.URL)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "- [%s] %s\n", r.ID, strings.Join(head, " · "))
	if t := text.OneLine(r.Title); t != "" {
		b.WriteString("  title: " + t + "\n")
	}
	if body := text.OneLine(r.Body); body != "" {
		b.WriteString("  body: " + text.Clip(body, bodyChars) + "\n")
	}
	if f := renderFields(r.Fields); f != "" {
		b.WriteString("  fields: " + f + "\n")
	}
	return b.String()
}

func tierText(tier int) string {
	if tier == 0 {
		return " (tier unknown)"
	}
	return fmt.Sprintf(" (tier %d)", tier)
}

// renderFields writes extra fields as sorted key=value pairs.
func renderFields(fields map[string]any) string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		var v string
		switch x := fields[k].(type) {
		case time.Time:
			v = x.UTC().Format(time.RFC3339)
		case []string:
			v = strings.Join(x, ",")
		default:
			v = fmt.Sprint(x)
		}
		parts = append(parts, k+"="+text.Clip(text.OneLine(v), 200))
	}
	return strings.Join(parts, " ")
}

// compactJSON drops insignificant whitespace; invalid JSON is kept as is.
func compactJSON(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}

var schemaNameInvalid = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]+`) })

// schemaName is the json_schema name OpenAI requires: [A-Za-z0-9_-], ≤ 64.
func schemaName(role string) string {
	name := schemaNameInvalid().ReplaceAllString(role, "_")
	if name == "" {
		name = "agent"
	}
	name += "_output"
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}
