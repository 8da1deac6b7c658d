package openai

import (
	"encoding/json"
	"slices"
)

// strictSchema adapts a JSON Schema to the subset OpenAI's strict
// structured outputs accept: every object lists all its properties as
// required and forbids additional ones, and the "$schema" marker is
// dropped. Optional fields thus become always-present, which the role
// outputs allow. A schema that does not decode is sent unchanged (the
// server's refusal then triggers the json_object fallback).
func strictSchema(raw json.RawMessage) json.RawMessage {
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		return raw
	}
	delete(root, "$schema")
	tighten(root)
	out, err := json.Marshal(root)
	if err != nil {
		return raw
	}
	return out
}

// tighten applies the strict rules to s and every schema nested in it.
func tighten(s map[string]any) {
	if props, ok := s["properties"].(map[string]any); ok {
		// Keep the schema's own required order; add the rest sorted.
		var required []any
		listed := map[string]bool{}
		if old, ok := s["required"].([]any); ok {
			for _, k := range old {
				if name, ok := k.(string); ok && props[name] != nil && !listed[name] {
					required = append(required, name)
					listed[name] = true
				}
			}
		}
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !listed[k] {
				required = append(required, k)
			}
			if sub, ok := props[k].(map[string]any); ok {
				tighten(sub)
			}
		}
		s["required"] = required
		s["additionalProperties"] = false
	}
	if items, ok := s["items"].(map[string]any); ok {
		tighten(items)
	}
	for _, key := range []string{"anyOf", "allOf", "oneOf"} {
		if list, ok := s[key].([]any); ok {
			for _, v := range list {
				if sub, ok := v.(map[string]any); ok {
					tighten(sub)
				}
			}
		}
	}
	for _, key := range []string{"$defs", "definitions"} {
		if defs, ok := s[key].(map[string]any); ok {
			for _, v := range defs {
				if sub, ok := v.(map[string]any); ok {
					tighten(sub)
				}
			}
		}
	}
}
