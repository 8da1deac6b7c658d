package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/nous-dev/nous/sdk"
)

// roleSchema describes a role's output: one table that yields both the JSON
// Schema sent to the agent and the validation of its answer, so the two
// cannot drift. Role outputs are objects of strings, integers, string lists
// and lists of such objects, which strict decoding plus this table checks
// exactly, without a general JSON Schema library.
type roleSchema struct {
	role   string
	fields []schemaField
}

type schemaField struct {
	name     string
	list     bool          // array of strings, else string
	integer  bool          // a non-negative integer
	items    []schemaField // array of objects with these fields
	required bool          // must be present
	enum     []string      // allowed values (strings only)
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
	sdk.RoleValidator: {sdk.RoleValidator, []schemaField{
		{name: "steps", required: true, items: []schemaField{
			{name: "step", required: true},
			{name: "verdict", required: true, enum: []string{sdk.VerdictValid, sdk.VerdictInvalid, sdk.VerdictUncertain}},
			{name: "issues", list: true},
			{name: "deltas", items: []schemaField{
				{name: "op", required: true, enum: []string{OpAdd, OpModify, OpRemove, OpReplace}},
				{name: "target_step"},
				{name: "description"},
				{name: "drop_filters", list: true},
				{name: "set_filters", items: []schemaField{
					{name: "key", required: true},
					{name: "values", list: true, required: true},
				}},
				{name: "limit", integer: true},
				{name: "justification", required: true},
			}},
		}},
	}},
}

// schemaJSONs are the JSON Schemas of the roles' outputs, built once: an
// agent call sends its role's (shared, never changed).
var schemaJSONs = sync.OnceValue(func() map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(roleSchemas))
	for role, s := range roleSchemas {
		m[role] = s.schemaJSON()
	}
	return m
})

// schemaJSON returns the JSON Schema of the role's output.
func (s roleSchema) schemaJSON() json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"$schema":"https://json-schema.org/draft/2020-12/schema","title":`)
	writeJSON(&b, s.role+" output")
	b.WriteByte(',')
	writeObject(&b, s.fields)
	b.WriteByte('}')
	return b.Bytes()
}

// writeObject writes the members of an object schema with these fields.
func writeObject(b *bytes.Buffer, fields []schemaField) {
	b.WriteString(`"type":"object","additionalProperties":false,"properties":{`)
	var required []string
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(b, f.name)
		switch {
		case f.items != nil:
			b.WriteString(`:{"type":"array","items":{`)
			writeObject(b, f.items)
			b.WriteString(`}}`)
		case f.list:
			b.WriteString(`:{"type":"array","items":{"type":"string"}}`)
		case f.integer:
			b.WriteString(`:{"type":"integer","minimum":0}`)
		case len(f.enum) > 0:
			b.WriteString(`:{"type":"string","enum":`)
			writeJSON(b, f.enum)
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
	writeJSON(b, required)
}

func writeJSON(b *bytes.Buffer, v any) {
	out, _ := json.Marshal(v) // strings and string slices always marshal
	b.Write(out)
}

// maxSchemaProblems bounds the problems one answer is reported with.
const maxSchemaProblems = 10

// decode checks raw against the schema and decodes it into out.
func (s roleSchema) decode(raw []byte, out any) error {
	obj, ok := splitObject(raw)
	if !ok {
		if err := json.Unmarshal(raw, &obj); err != nil {
			return fmt.Errorf("not a JSON object: %w", err)
		}
	}
	var lists []namedList
	if problems := checkObject(obj, s.fields, "", nil, &lists); len(problems) > 0 {
		if len(problems) > maxSchemaProblems {
			problems = append(problems[:maxSchemaProblems], fmt.Sprintf("and %d more", len(problems)-maxSchemaProblems))
		}
		return fmt.Errorf("does not match the %s schema: %s", s.role, strings.Join(problems, "; "))
	}
	return fill(raw, obj, out, lists)
}

// namedList is a member of an answer decoded as a list of strings.
type namedList struct {
	name string
	list []string
}

// checkObject appends to problems what in obj does not fit fields; at
// names the object ("" for the answer itself, else "steps[0]. "). The
// string lists it decodes are appended to lists, unless it is nil.
func checkObject(obj map[string]json.RawMessage, fields []schemaField, at string, problems []string, lists *[]namedList) []string {
	for _, f := range fields {
		v, ok := obj[f.name]
		if !ok || string(v) == "null" {
			if f.required {
				problems = append(problems, fmt.Sprintf("missing %q", at+f.name))
			}
			continue
		}
		name := at + f.name
		switch {
		case f.items != nil:
			var l []map[string]json.RawMessage
			if json.Unmarshal(v, &l) != nil {
				problems = append(problems, fmt.Sprintf("%q must be an array of objects", name))
				continue
			}
			for i, o := range l {
				problems = checkObject(o, f.items, fmt.Sprintf("%s[%d].", name, i), problems, nil)
			}
		case f.list:
			var l []string
			switch {
			case json.Unmarshal(v, &l) != nil:
				problems = append(problems, fmt.Sprintf("%q must be an array of strings", name))
			case lists != nil:
				*lists = append(*lists, namedList{f.name, l})
			}
		case f.integer:
			var n int
			if json.Unmarshal(v, &n) != nil || n < 0 {
				problems = append(problems, fmt.Sprintf("%q must be a non-negative integer", name))
			}
		case len(f.enum) == 0:
			// v is one valid JSON value: a string when it starts with a quote.
			if len(v) == 0 || v[0] != '"' {
				problems = append(problems, fmt.Sprintf("%q must be a string", name))
			}
		default:
			str, ok := unquote(v)
			if !ok && json.Unmarshal(v, &str) != nil {
				problems = append(problems, fmt.Sprintf("%q must be a string", name))
				continue
			}
			if !slices.Contains(f.enum, str) {
				problems = append(problems, fmt.Sprintf("%q is %q, want one of %s", name, str, strings.Join(f.enum, ", ")))
			}
		}
	}
	for _, k := range sortedKeys(obj) {
		if !slices.ContainsFunc(fields, func(f schemaField) bool { return f.name == k }) {
			problems = append(problems, fmt.Sprintf("unknown field %q", at+k))
		}
	}
	return problems
}
