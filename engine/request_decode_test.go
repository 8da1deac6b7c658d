package engine_test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/nous-dev/nous/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeRequest(t *testing.T) {
	req, err := engine.DecodeRequest(strings.NewReader(`{
  "query": "what changed?",
  "intents": [{"type": "query_commits", "confidence": 0.9}],
  "entities": {"projects": ["my-repo"], "dates": ["this week"]},
  "mode": "strict"
}`))
	require.NoError(t, err)
	assert.Equal(t, engine.Request{
		Query:    "what changed?",
		Intents:  []engine.Intent{{Type: "query_commits", Confidence: 0.9}},
		Entities: map[string][]string{"projects": {"my-repo"}, "dates": {"this week"}},
		Mode:     "strict",
	}, req)

	req, err = engine.DecodeRequest(strings.NewReader(`{"intents": null, "entities": {}}`))
	require.NoError(t, err)
	assert.Nil(t, req.Intents)
	assert.Equal(t, map[string][]string{}, req.Entities, "an empty entities object means no entities, not extraction")

	req, err = engine.DecodeRequest(strings.NewReader("\xef\xbb\xbf{\"query\": \"x\"}"))
	require.NoError(t, err, "a UTF-8 byte order mark (Windows editors) is not an error")
	assert.Equal(t, "x", req.Query)
}

func TestDecodeRequestErrors(t *testing.T) {
	tests := []struct {
		name, input string
		want        string
	}{
		{"unknown top-level field", "{\n  \"query\": \"x\",\n  \"intent\": []\n}", `3:3: intent: unknown field (expected query, intents, entities or mode)`},
		{"unknown intent field", `{"intents": [{"type": "a", "confidence": 0.5, "score": 1}]}`, `1:47: intents[0].score: unknown field (expected type and confidence)`},
		{"confidence above one", "{\"intents\": [\n  {\"type\": \"a\", \"confidence\": 0.5},\n  {\"type\": \"b\", \"confidence\": 1.5}\n]}", `3:31: intents[1].confidence: 1.5 is outside [0, 1]`},
		{"negative confidence", `{"intents": [{"type": "a", "confidence": -0.1}]}`, `1:42: intents[0].confidence: -0.1 is outside [0, 1]`},
		{"missing confidence", `{"intents": [{"type": "a"}]}`, `1:14: intents[0].confidence: missing confidence`},
		{"missing type", `{"intents": [{"confidence": 1}]}`, `1:14: intents[0].type: missing intent type`},
		{"confidence as string", `{"intents": [{"type": "a", "confidence": "high"}]}`, `1:42: intents[0].confidence: expected a number, got JSON string`},
		{"confidence overflows", `{"intents": [{"type": "a", "confidence": 1e999}]}`, `1:42: intents[0].confidence: 1e999 is too large for a number`},
		{"byte order mark then bad field", "\xef\xbb\xbf{\"mode\": 1}", `1:10: mode: expected a string, got JSON number`},
		{"intents not an array", `{"intents": {"type": "a"}}`, `1:13: intents: expected an array`},
		{"intent not an object", `{"intents": ["query_commits"]}`, `1:14: intents[0]: expected an object`},
		{"entity values not a list", `{"entities": {"projects": "x"}}`, `1:27: entities.projects: expected an array of strings, got JSON string`},
		{"empty entity value", `{"entities": {"projects": [""]}}`, `entities.projects: values must not be empty strings`},
		{"query not a string", `{"query": 42}`, `1:11: query: expected a string, got JSON number`},
		{"not an object", `["query"]`, `1:1: expected a JSON object`},
		{"syntax error", "{\n  \"query\": \"x\" \"mode\": \"y\"\n}", `2:16: invalid character '"' after object key:value pair`},
		{"truncated", `{"query": "x"`, `unexpected end of input`},
		{"empty input", ``, `1:1: unexpected end of input`},
		{"trailing data", `{"query": "x"} {}`, `1:16: unexpected data after the request object`},
		{"duplicate field", `{"query": "x", "query": "y"}`, `1:16: query: field appears twice`},
		{"duplicate field in an intent", `{"intents": [{"type": "a", "confidence": 1, "type": "b"}]}`, `1:45: intents[0].type: field appears twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := engine.DecodeRequest(strings.NewReader(tt.input))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "\n", "errors are one line")
			var ie *engine.InputError
			assert.ErrorAs(t, err, &ie)
		})
	}
}

func TestDecodeRequestRefusesAnOversizedInput(t *testing.T) {
	huge := io.MultiReader(strings.NewReader(`{"query": "`), zeros{})
	_, err := engine.DecodeRequest(huge)
	var ie *engine.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, 1, ie.Line)
	assert.Equal(t, engine.MaxRequestSize+1, ie.Column)
	assert.Contains(t, err.Error(), "the request is larger than 16 MiB")
}

// zeros is an endless input, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"intents": [{"type": "query_commits", "confidence": 0.9}]}`,
		`{"query": "what changed last week?", "mode": "strict"}`,
		`{"entities": {"projects": ["a", "b"]}, "intents": null}`,
		`{"intents": [{"type": "a", "confidence": 2}]}`,
		`{"query": 1}`,
		`[`,
		``,
		`{"intents": [{"type": "a", "confidence": 0.5, "x": [}]}`,
	} {
		f.Add([]byte(seed))
	}
	p := defaultPlanner(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := engine.DecodeRequest(strings.NewReader(string(data)))
		if err != nil {
			var ie *engine.InputError
			if assert.ErrorAs(t, err, &ie) {
				assert.Positive(t, ie.Line)
				assert.Positive(t, ie.Column)
			}
			return
		}
		// A decoded request is valid, plans, and survives a round trip.
		require.NoError(t, req.Validate())
		plan(t, p, req)
		data2, err := json.Marshal(req)
		require.NoError(t, err)
		again, err := engine.DecodeRequest(strings.NewReader(string(data2)))
		require.NoError(t, err)
		assert.Equal(t, req, again)
	})
}

// FuzzPlanQuery plans arbitrary questions with the default rules: no panic,
// always valid JSON, and the same plan twice.
func FuzzPlanQuery(f *testing.F) {
	for _, q := range []string{
		"what changed in payments last week?",
		"how many open bugs does project ABC have?",
		"verify the status of group/api between 2024-01-01..2024-01-31",
		"hello",
		"",
		"\xff\xfe project: last 99999999999999999999 days",
	} {
		f.Add(q)
	}
	p := defaultPlanner(f)
	f.Fuzz(func(t *testing.T, query string) {
		first := plan(t, p, engine.Request{Query: query})
		a, err := json.Marshal(first)
		require.NoError(t, err)
		require.True(t, json.Valid(a))
		b, err := json.Marshal(plan(t, p, engine.Request{Query: query}))
		require.NoError(t, err)
		require.Equal(t, string(a), string(b))
	})
}
