package runner

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

// TestDecodeOnceMatchesStrict guards the single-parse decoding: every
// answer decodes to what the strict decoding yields, with its exact error.
func TestDecodeOnceMatchesStrict(t *testing.T) {
	outs := map[string]func() any{
		sdk.RoleAnalyst:       func() any { return &sdk.AnalystOutput{} },
		sdk.RoleCritic:        func() any { return &sdk.CriticOutput{} },
		sdk.RoleWriter:        func() any { return &sdk.WriterOutput{} },
		sdk.RoleClarification: func() any { return &sdk.ClarificationOutput{} },
		sdk.RoleValidator:     func() any { return &sdk.ValidatorOutput{} },
	}
	tests := []struct {
		role, raw string
		fast      bool // decodeOnce takes it
	}{
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY","draft":"d","new_queries":["a","b"],"reasoning_chain":"r"}`, true},
		{sdk.RoleAnalyst, ` {"status":"SEARCH_REQUIRED","draft":"","new_queries":[]} ` + "\n", true},
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY","draft":"d","new_queries":null,"reasoning_chain":null}`, true},
		{sdk.RoleAnalyst, "{\"status\":\"DRAFT_READY\",\"draft\":\"caf\\u00e9 \\ud83d\\ude00 \\ud800 \xff\"}", true},
		{sdk.RoleAnalyst, `{"status":"MAYBE","draft":"d"}`, false},
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY"}`, false},
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY","draft":null}`, false},
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY","draft":1}`, false},
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY","draft":"d","new_queries":[1]}`, false},
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY","draft":"d","Draft":"e"}`, false},
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY","draft":"d"} x`, false},
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY","draft":"d"`, false},
		{sdk.RoleAnalyst, `["DRAFT_READY"]`, false},
		{sdk.RoleAnalyst, ``, false},
		{sdk.RoleCritic, `{"status":"PASS","critique":"ok","suggestions":["s"],"mode_compliance":"m","logical_gaps":[]}`, true},
		{sdk.RoleWriter, `{"final_report":"# R\n\nbody","sources_used":["issues:1"],"confidence_level":"High"}`, true},
		{sdk.RoleWriter, `{"final_report":"r","confidence_level":"Sure"}`, false},
		{sdk.RoleClarification, `{"question":"q?","options":["a","b"]}`, true},
		{sdk.RoleClarification, `{"question":"q?"}`, false},
		{sdk.RoleValidator, `{"steps":[{"step":"s1","verdict":"valid","issues":[],"deltas":[{"op":"MODIFY","target_step":"s1","limit":5,"justification":"j","set_filters":[{"key":"k","values":["v"]}]}]}]}`, true},
		{sdk.RoleValidator, `{"steps":[{"step":"s1","verdict":"valid","deltas":[{"op":"ADD","justification":"j","limit":1.0}]}]}`, false},
		{sdk.RoleValidator, `{"steps":[{"step":"s1","verdict":"valid","deltas":[{"op":"ADD","justification":"j","limit":-1}]}]}`, false},
		{sdk.RoleValidator, `{"steps":[{"step":"s1","verdict":"valid","deltas":[{"op":"ADD","justification":"j","limit":99999999999999999999}]}]}`, false},
		{sdk.RoleValidator, `{"steps":[{"step":"s1","verdict":"valid","deltas":[{"op":"ADD","justification":"j","set_filters":[{"key":"k"}]}]}]}`, false},
		{sdk.RoleValidator, `{"steps":{"step":"s1"}}`, false},
		{sdk.RoleValidator, `{"steps":[]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			schema, ok := roleSchemas[tt.role]
			require.True(t, ok)
			want, got, once := outs[tt.role](), outs[tt.role](), outs[tt.role]()
			wantErr := schema.decodeStrict([]byte(tt.raw), want)
			gotErr := schema.decode([]byte(tt.raw), got)
			assert.Equal(t, wantErr, gotErr)
			assert.True(t, reflect.DeepEqual(want, got), "decoded %#v, strict %#v", got, want)
			assert.Equal(t, tt.fast, schema.decodeOnce([]byte(tt.raw), once))
			if tt.fast {
				assert.NoError(t, wantErr)
				assert.True(t, reflect.DeepEqual(want, once), "once %#v, strict %#v", once, want)
			}
		})
	}
}

// TestDecodeOnceFallsBackForOtherTargets: a target that is not a struct of
// the schema's shapes is decoded by json.Unmarshal as before.
func TestDecodeOnceFallsBackForOtherTargets(t *testing.T) {
	schema := roleSchemas[sdk.RoleClarification]
	raw := []byte(`{"question":"q?","options":["a"]}`)
	var m map[string]any
	assert.False(t, schema.decodeOnce(raw, &m))
	require.NoError(t, schema.decode(raw, &m))
	assert.Equal(t, map[string]any{"question": "q?", "options": []any{"a"}}, m)
}

func BenchmarkDecodeAnswer(b *testing.B) {
	schema := roleSchemas[sdk.RoleWriter]
	raw := []byte(`{"final_report":"# Report\n\nThe issues show three regressions in the parser since v1.2, each fixed within a week.\n\n- #12 crash on empty input\n- #15 wrong line numbers\n- #19 slow on long lines","sources_used":["issues:12","issues:15","issues:19"],"confidence_level":"High"}`)
	for _, name := range []string{"once", "strict"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out sdk.WriterOutput
				var err error
				if name == "once" {
					err = schema.decode(raw, &out)
				} else {
					err = schema.decodeStrict(raw, &out)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
