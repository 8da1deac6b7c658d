package openai

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStrictSchema(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"optional fields become required, extra ones forbidden",
			`{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"analyst output","type":"object","properties":{"status":{"type":"string","enum":["SEARCH_REQUIRED","DRAFT_READY"]},"new_queries":{"type":"array","items":{"type":"string"}},"draft":{"type":"string"}},"required":["status","draft"]}`,
			`{"title":"analyst output","type":"object","additionalProperties":false,"required":["status","draft","new_queries"],"properties":{"status":{"type":"string","enum":["SEARCH_REQUIRED","DRAFT_READY"]},"new_queries":{"type":"array","items":{"type":"string"}},"draft":{"type":"string"}}}`},
		{"nested objects in items, anyOf and $defs",
			`{"type":"object","properties":{"xs":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}},"u":{"anyOf":[{"type":"object","properties":{"b":{"type":"number"}}},{"type":"null"}]}},"$defs":{"d":{"type":"object","properties":{"c":{"type":"string"}}}}}`,
			`{"type":"object","additionalProperties":false,"required":["u","xs"],"properties":{"xs":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["a"],"properties":{"a":{"type":"string"}}}},"u":{"anyOf":[{"type":"object","additionalProperties":false,"required":["b"],"properties":{"b":{"type":"number"}}},{"type":"null"}]}},"$defs":{"d":{"type":"object","additionalProperties":false,"required":["c"],"properties":{"c":{"type":"string"}}}}}`},
		{"not an object is sent as is", `[1,2]`, `[1,2]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strictSchema(json.RawMessage(tt.in))
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
