package runner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// splitSeeds are answers splitObject splits, and some it leaves to
// encoding/json.
var splitSeeds = []string{
	`{}`, ` { } `, `{"a":1}`, "{\n  \"final_report\": \"# R\\n\\n- x\",\n  \"sources_used\": [\"a\", \"b\"],\n  \"confidence_level\": \"High\"\n}\n",
	`{"a":{"b":[1,-2.5e+3,true,false,null,"s",{}]},"c":[]}`, `{"a":1,"a":2}`, `{"k\"q":"v"}`, `{"\u00e9":1}`, `{"a":"\ud800"}`,
	`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1,}`, `{"a" 1}`, `{"a":1}x`, `[1]`, `null`, `"s"`, `{"a":tru}`, `{"a":"x` + "\x01" + `"}`,
	`{"a":"bad ` + "\xff" + `"}`, `{"bad ` + "\xff" + `":1}`, `{"a":"\q"}`, `{"a":[1 2]}`, `{"a":{"b" 1}}`, "\ufeff{}", `{"a":1e5,"b":0.5E-2,"c":-0}`,
	strings.Repeat("[", 600) + strings.Repeat("]", 600),
}

func TestSplitObjectAsUnmarshal(t *testing.T) {
	for _, s := range splitSeeds {
		checkSplit(t, []byte(s))
	}
	for _, s := range splitSeeds[:7] {
		_, ok := splitObject([]byte(s))
		assert.True(t, ok, "split here: %s", s)
	}
}

func FuzzSplitObject(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkSplit(t, raw) })
}

// checkSplit checks that splitObject, when it splits raw, splits it as
// json.Unmarshal decodes it.
func checkSplit(t *testing.T, raw []byte) {
	got, ok := splitObject(raw)
	if !ok {
		return
	}
	var want map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &want), "split what encoding/json refuses: %q", raw)
	require.True(t, json.Valid(raw))
	assert.Equal(t, want, got, "%q", raw)
}
