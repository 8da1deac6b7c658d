package pluginconfig

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nous-dev/nous/sdk"
)

func TestDecode(t *testing.T) {
	type cfg struct {
		Path  string
		Stats bool
		Token string
		N     int
	}
	keys := func(c *cfg) []Key {
		return []Key{
			{Name: "path", Into: &c.Path, Want: "a string"},
			{Name: "stats", Into: &c.Stats, Want: "true or false"},
			{Name: "token", Into: &c.Token, Want: "a string", Secret: true},
			{Name: "n", Into: func(v json.RawMessage) error {
				if err := json.Unmarshal(v, &c.N); err != nil || c.N < 1 {
					return errors.New("want a positive integer")
				}
				return nil
			}},
		}
	}
	tests := []struct {
		name  string
		raw   string
		want  cfg
		diags sdk.Diagnostics
	}{
		{"empty", "", cfg{}, nil},
		{"null", " null ", cfg{}, nil},
		{"all keys", `{"path":"a","stats":true,"token":"t","n":2}`, cfg{Path: "a", Stats: true, Token: "t", N: 2}, nil},
		{"not an object", `[1]`, cfg{}, sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "p: config is not a JSON object",
			Detail: "json: cannot unmarshal array into Go value of type map[string]json.RawMessage"}}},
		{"unknown key, then a bad one, sorted", `{"zz":1,"stats":"yes","path":"a"}`, cfg{Path: "a"}, sdk.Diagnostics{
			{Severity: sdk.SeverityError, Path: "stats", Summary: `p: config stats: want true or false, got "yes"`},
			{Severity: sdk.SeverityWarning, Path: "zz", Summary: `p: unknown config key "zz" is ignored`, Detail: "known keys: n, path, stats, token"},
		}},
		{"a secret is not echoed", `{"token":["hunter2"]}`, cfg{}, sdk.Diagnostics{
			{Severity: sdk.SeverityError, Path: "token", Summary: "p: config token: want a string"}}},
		{"a decoder's own error", `{"n":0}`, cfg{}, sdk.Diagnostics{
			{Severity: sdk.SeverityError, Path: "n", Summary: "p: config n: want a positive integer"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got cfg
			diags, ok := Decode("p", json.RawMessage(tt.raw), keys(&got)...)
			assert.Equal(t, tt.diags, diags)
			assert.Equal(t, tt.name != "not an object", ok)
			if tt.diags == nil {
				assert.Equal(t, tt.want, got)
			}
		})
	}
}
