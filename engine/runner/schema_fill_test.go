package runner

import (
	"encoding/json"
	"testing"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unquoteSeeds are JSON strings unquote decodes or leaves to encoding/json.
var unquoteSeeds = []string{
	`""`, `"plain"`, `"a\nb\tc\\d\"e\/f\bg\fh\ri"`, `"héllo — 世界"`, `"\u00e9"`, `"\ud800"`,
	`"a` + "\xff" + `b"`, `"` + "\xed\xa0\x80" + `"`, `"\uFFFD` + "\xef\xbf\xbd" + `"`, `"ends in \\"`,
}

func TestUnquoteAsEncodingJSON(t *testing.T) {
	for _, lit := range unquoteSeeds {
		t.Run(lit, func(t *testing.T) { checkUnquote(t, []byte(lit)) })
	}
	for _, lit := range unquoteSeeds[:4] {
		_, ok := unquote([]byte(lit))
		assert.True(t, ok, "decoded here: %s", lit)
	}
	for _, lit := range unquoteSeeds[4:8] {
		_, ok := unquote([]byte(lit))
		assert.False(t, ok, "left to encoding/json: %s", lit)
	}
}

func FuzzUnquote(f *testing.F) {
	for _, lit := range unquoteSeeds {
		f.Add([]byte(lit))
	}
	f.Fuzz(func(t *testing.T, lit []byte) {
		if !json.Valid(lit) {
			return // unquote is only given valid JSON
		}
		checkUnquote(t, lit)
	})
}

// checkUnquote checks that unquote, when it decodes lit, decodes it as
// json.Unmarshal does.
func checkUnquote(t *testing.T, lit []byte) {
	got, ok := unquote(lit)
	var want string
	err := json.Unmarshal(lit, &want)
	if !ok {
		return
	}
	require.NoError(t, err, "unquote took a literal encoding/json refuses")
	assert.Equal(t, want, got)
}

// TestDecodeAsUnmarshal checks that an answer that fits its schema decodes
// into what json.Unmarshal of the whole answer gives, for every role.
func TestDecodeAsUnmarshal(t *testing.T) {
	cases := []struct {
		role string
		raw  string
		out  func() any
	}{
		{sdk.RoleWriter, `{"final_report":"# R\n\n- a \"b\" é\u00e9 \ud83d\ude00","sources_used":["x","y"],"confidence_level":"High"}`, func() any { return new(sdk.WriterOutput) }},
		{sdk.RoleWriter, `{"final_report":"r","sources_used":null,"confidence_level":null}`, func() any { return new(sdk.WriterOutput) }},
		{sdk.RoleWriter, `{"final_report":"first","final_report":"second"}`, func() any { return new(sdk.WriterOutput) }},
		{sdk.RoleWriter, " {\"final_report\" : \"bad \xff utf-8\" } ", func() any { return new(sdk.WriterOutput) }},
		{sdk.RoleAnalyst, `{"status":"DRAFT_READY","new_queries":[],"draft":"d\\n","reasoning_chain":"why"}`, func() any { return new(sdk.AnalystOutput) }},
		{sdk.RoleCritic, `{"status":"WARN","critique":"c","suggestions":["s"],"mode_compliance":"ok","logical_gaps":["g"]}`, func() any { return new(sdk.CriticOutput) }},
		{sdk.RoleCritic, `{"status":"W\u0041RN","critique":"c\/d"}`, func() any { return new(sdk.CriticOutput) }},
		{sdk.RoleClarification, `{"question":"which?","options":["a","b"]}`, func() any { return new(sdk.ClarificationOutput) }},
		{sdk.RoleValidator, `{"steps":[{"step":"h1","verdict":"invalid","issues":["i"],"deltas":[{"op":"MODIFY","target_step":"h1","set_filters":[{"key":"k","values":["v"]}],"limit":3,"justification":"j"}]}]}`, func() any { return new(sdk.ValidatorOutput) }},
	}
	for _, c := range cases {
		t.Run(c.raw, func(t *testing.T) {
			got, want := c.out(), c.out()
			require.NoError(t, roleSchemas[c.role].decode([]byte(c.raw), got))
			require.NoError(t, json.Unmarshal([]byte(c.raw), want))
			assert.Equal(t, want, got)
		})
	}
}

// TestDecodeStringProblems checks the schema's string check: a member that
// is no string is named, whatever else it is.
func TestDecodeStringProblems(t *testing.T) {
	for _, v := range []string{`1`, `true`, `[]`, `{}`, `["a"]`} {
		var out sdk.WriterOutput
		err := roleSchemas[sdk.RoleWriter].decode([]byte(`{"final_report":`+v+`}`), &out)
		require.Error(t, err, v)
		assert.Contains(t, err.Error(), `"final_report" must be a string`)
	}
}
