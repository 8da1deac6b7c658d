package config_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/config"
)

// level reads "low" or "high" itself, so its error is the one shown.
type level int

func (l *level) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"low"`:
		*l = 1
	case `"high"`:
		*l = 2
	default:
		return errors.New(`want "low" or "high"`)
	}
	return nil
}

func (level) ConfigSchema() json.RawMessage { return json.RawMessage(`{"enum":["low","high"]}`) }

type limits struct {
	Depth int    `json:"depth" default:"3"`
	Mode  string `json:"mode" config:"required"`
}

type testConfig struct {
	Path   string            `json:"path" config:"required" doc:"the file to read"`
	Stats  *bool             `json:"stats" default:"true" want:"true or false"`
	Token  string            `json:"token" config:"secret"`
	Kind   string            `json:"kind" default:"document" enum:"document,note"`
	N      int               `json:"n,omitempty" min:"1"`
	Level  level             `json:"level"`
	Key    level             `json:"key" config:"secret"`
	Fields map[string]string `json:"fields"`
	Limits limits            `json:"limits"`
	Tags   []string          `json:"tags"`

	hidden string //nolint:unused // not a key: unexported
	Skip   string `json:"-"`
}

func TestDecode(t *testing.T) {
	yes, no := true, false
	defaults := func(c testConfig) testConfig {
		if c.Stats == nil {
			c.Stats = &yes
		}
		if c.Kind == "" {
			c.Kind = "document"
		}
		if c.Limits.Depth == 0 {
			c.Limits.Depth = 3
		}
		return c
	}
	needs := func(key, doc string) sdk.Diagnostic {
		return sdk.Diagnostic{Severity: sdk.SeverityError, Path: key, Summary: "p: config needs " + key, Detail: doc}
	}
	tests := []struct {
		name   string
		raw    string
		want   testConfig
		diags  sdk.Diagnostics
		failed bool
	}{
		{"empty: defaults, and what is required", "", defaults(testConfig{}),
			sdk.Diagnostics{needs("path", "the file to read"), needs("limits.mode", "")}, false},
		{"null is empty", " null ", defaults(testConfig{}),
			sdk.Diagnostics{needs("path", "the file to read"), needs("limits.mode", "")}, false},
		{"every key", `{"path":"a","stats":false,"token":"t","kind":"note","n":2,"level":"high","key":"low","fields":{"title":"h"},"limits":{"depth":1,"mode":"m"},"tags":["x"]}`,
			testConfig{Path: "a", Stats: &no, Token: "t", Kind: "note", N: 2, Level: 2, Key: 1, Fields: map[string]string{"title": "h"},
				Limits: limits{Depth: 1, Mode: "m"}, Tags: []string{"x"}}, nil, false},
		{"null and empty string are unset", `{"path":"a","kind":"","stats":null,"limits":{"mode":"m","depth":null}}`,
			defaults(testConfig{Path: "a", Limits: limits{Mode: "m"}}), nil, false},
		{"not an object", `[1]`, testConfig{}, sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "p: config is not a JSON object",
			Detail: "json: cannot unmarshal array into Go value of type map[string]json.RawMessage"}}, true},
		{"unknown keys, then bad ones, sorted", `{"zz":1,"stats":"yes","path":"a","limits":{"mode":"m","deep":1}}`,
			defaults(testConfig{Path: "a", Limits: limits{Mode: "m"}}), sdk.Diagnostics{
				{Severity: sdk.SeverityWarning, Path: "limits.deep", Summary: `p: unknown config key "limits.deep" is ignored`, Detail: "known keys: depth, mode"},
				{Severity: sdk.SeverityError, Path: "stats", Summary: `p: config stats: want true or false, got "yes"`},
				{Severity: sdk.SeverityWarning, Path: "zz", Summary: `p: unknown config key "zz" is ignored`,
					Detail: "known keys: fields, key, kind, level, limits, n, path, stats, tags, token"},
			}, false},
		{"wants from the types", `{"path":1,"n":1.5,"kind":2,"fields":{"a":1},"tags":"x","limits":[],"level":"mid"}`,
			// a nested object that does not decode stays as it was
			testConfig{Stats: &yes, Kind: "document"}, sdk.Diagnostics{
				{Severity: sdk.SeverityError, Path: "fields", Summary: `p: config fields: want an object of strings, got {"a":1}`},
				{Severity: sdk.SeverityError, Path: "kind", Summary: `p: config kind: want "document" or "note", got 2`},
				{Severity: sdk.SeverityError, Path: "level", Summary: `p: config level: want "low" or "high"`},
				{Severity: sdk.SeverityError, Path: "limits", Summary: `p: config limits: want an object, got []`},
				{Severity: sdk.SeverityError, Path: "n", Summary: `p: config n: want an integer, got 1.5`},
				{Severity: sdk.SeverityError, Path: "path", Summary: `p: config path: want a string, got 1`},
				{Severity: sdk.SeverityError, Path: "tags", Summary: `p: config tags: want a list of strings, got "x"`},
			}, false},
		{"a secret is not echoed", `{"path":"a","limits":{"mode":"m"},"token":["hunter2"],"key":"hunter2"}`, defaults(testConfig{Path: "a", Limits: limits{Mode: "m"}}), sdk.Diagnostics{
			{Severity: sdk.SeverityError, Path: "key", Summary: "p: config key: invalid value"},
			{Severity: sdk.SeverityError, Path: "token", Summary: "p: config token: want a string"},
		}, false},
		{"a long value is cut", `{"path":"a","limits":{"mode":"m"},"n":"` + strings.Repeat("x", 100) + `"}`, testConfig{}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got testConfig
			diags, ok := config.Decode("p", json.RawMessage(tt.raw), &got)
			assert.Equal(t, !tt.failed, ok)
			if tt.name == "a long value is cut" {
				require.Len(t, diags, 1)
				assert.Len(t, diags[0].Summary, len(`p: config n: want an integer, got "`)+79+len("…"))
				return
			}
			assert.Equal(t, tt.diags, diags)
			if !tt.failed {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}

func TestDecodeKeepsWhatIsSet(t *testing.T) {
	cfg := testConfig{Path: "from-env", N: 7, Kind: "note"}
	diags, ok := config.Decode("p", json.RawMessage(`{"path":"","n":8,"limits":{"mode":"m"}}`), &cfg)
	require.True(t, ok)
	assert.Empty(t, diags)
	assert.Equal(t, "from-env", cfg.Path, `"" leaves the value`)
	assert.Equal(t, 8, cfg.N)
	assert.Equal(t, "note", cfg.Kind, "a set field does not take its default")
}

func TestDecodeWantsAStructPointer(t *testing.T) {
	for _, dst := range []any{nil, testConfig{}, new(int), (*testConfig)(nil)} {
		diags, ok := config.Decode("p", json.RawMessage(`{}`), dst)
		assert.False(t, ok)
		require.Len(t, diags, 1)
		assert.Contains(t, diags[0].Summary, "p: config.Decode wants a pointer to a struct")
	}
}

func TestRelativeTo(t *testing.T) {
	tests := []struct{ dir, p, want string }{
		{"/rules", "data/x.jsonl", "/rules/data/x.jsonl"},
		{"/rules", "/abs/x", "/abs/x"},
		{"/rules", "", ""},
		{"", "data", "data"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, config.RelativeTo(tt.dir, tt.p))
	}
}
