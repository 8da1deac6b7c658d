package config_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nous-dev/nous/sdk/config"
)

func TestSchema(t *testing.T) {
	tests := []struct {
		name string
		got  json.RawMessage
		want string
	}{
		{"every kind of key", config.Schema[testConfig](), `{"type":"object","required":["path"],"properties":{` +
			`"path":{"type":"string","description":"the file to read"},` +
			`"stats":{"type":"boolean","default":true},` +
			`"token":{"type":"string","writeOnly":true},` +
			`"kind":{"type":"string","enum":["document","note"],"default":"document"},` +
			`"n":{"type":"integer","minimum":1},` +
			`"level":{"enum":["low","high"]},` +
			`"key":{"enum":["low","high"],"writeOnly":true},` +
			`"fields":{"type":"object","additionalProperties":{"type":"string"}},` +
			`"limits":{"type":"object","required":["mode"],"properties":{"depth":{"type":"integer","default":3},"mode":{"type":"string"}},"additionalProperties":false},` +
			`"tags":{"type":"array","items":{"type":"string"}}` +
			`},"additionalProperties":false}`},
		{"a pointer to the struct", config.Schema[*limits](), `{"type":"object","required":["mode"],"properties":{"depth":{"type":"integer","default":3},"mode":{"type":"string"}},"additionalProperties":false}`},
		{"no keys", config.Schema[struct{}](), `{"type":"object","properties":{},"additionalProperties":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.JSONEq(t, tt.want, string(tt.got))
			assert.Equal(t, tt.want, string(tt.got), "keys stay in declaration order")
		})
	}
}
