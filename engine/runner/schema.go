package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// roleSchema describes a role's output: one table that yields both the JSON
// Schema sent to the agent and the validation of its answer, so the two
// cannot drift. Role outputs are flat objects of strings and string lists,
// which strict decoding plus this table checks exactly, without a general
// JSON Schema library.
type roleSchema struct {
	role   string
	fields []schemaField
}

type schemaField struct {
	name     string
	list     bool     // array of strings, else string
	required bool     // must be present
	enum     []string // allowed values (strings only)
}

var roleSchemas = map[string]roleSchema{
	sdk.RoleAnalyst: {sdk.RoleAnalyst, []schemaField{
		{name: "status", required: true, enum: []string{sdk.AnalystSearchRequired, sdk.AnalystDraftReady}},
		{name: "new_queries", list: true},
		{name: "draft", required: true},
		{name: "reasoning_chain"},
	}},
	sdk.RoleCritic: {sdk.RoleCritic, []schemaField{
		{name: "status", required: true, enum: []string{sdk.VerdictPass, sdk.VerdictWarn, sdk.VerdictReject}},
		{name: "critique", required: true},
		{name: "suggestions", list: true},
		{name: "mode_compliance"},
		{name: "logical_gaps", list: true},
	}},
	sdk.RoleWriter: {sdk.RoleWriter, []schemaField{
		{name: "final_report", required: true},
		{name: "sources_used", list: true},
		{name: "confidence_level", enum: []string{"High", "Medium", "Low"}},
	}},
	sdk.RoleClarification: {sdk.RoleClarification, []schemaField{
		{name: "question", required: true},
		{name: "options", list: true, required: true},
	}},
}

// schemaJSON returns the JSON Schema of the role's output.
func (s roleSchema) schemaJSON() json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"$schema":"https://json-schema.org/draft/2020-12/schema","title":`)
	writeJSON(&b, s.role+" output")
	b.WriteString(`,"type":"object","additionalProperties":false,"properties":{`)
	var required []string
	for i, f := range s.fields {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, f.name)
		switch {
		case f.list:
			b.WriteString(`:{"type":"array","items":{"type":"string"}}`)
		case len(f.enum) > 0:
			b.WriteString(`:{"type":"string","enum":`)
			writeJSON(&b, f.enum)
			b.WriteByte('}')
		default:
			b.WriteString(`:{"type":"string"}`)
		}
		if f.required {
			required = append(required, f.name)
		}
	}
	b.WriteString(`},"required":`)
	if required == nil {
		required = []string{}
	}
	writeJSON(&b, required)
	b.WriteByte('}')
	return b.Bytes()
}

func writeJSON(b *bytes.Buffer, v any) {
	out, _ := json.Marshal(v) // strings and string slices always marshal
	b.Write(out)
}

// decode checks raw against the schema and decodes it into out.
func (s roleSchema) decode(raw []byte, out any) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	var problems []string
	for _, f := range s.fields {
		v, ok := obj[f.name]
		if !ok || string(v) == "null" {
			if f.required {
				problems = append(problems, fmt.Sprintf("missing %q", f.name))
			}
			continue
		}
		if f.list {
			var l []string
			if json.Unmarshal(v, &l) != nil {
				problems = append(problems, fmt.Sprintf("%q must be an array of strings", f.name))
			}
			continue
		}
		var str string
		if json.Unmarshal(v, &str) != nil {
			problems = append(problems, fmt.Sprintf("%q must be a string", f.name))
			continue
		}
		if len(f.enum) > 0 && !slices.Contains(f.enum, str) {
			problems = append(problems, fmt.Sprintf("%q is %q, want one of %s", f.name, str, strings.Join(f.enum, ", ")))
		}
	}
	for _, k := range sortedKeys(obj) {
		if !slices.ContainsFunc(s.fields, func(f schemaField) bool { return f.name == k }) {
			problems = append(problems, fmt.Sprintf("unknown field %q", k))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("does not match the %s schema: %s", s.role, strings.Join(problems, "; "))
	}
	return json.Unmarshal(raw, out)
}
