package jsonrepair

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRepair(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"valid untouched", `{"a": [1, 2]}`, `{"a": [1, 2]}`},
		{"code fence", "```json\n{\"status\": \"PASS\"}\n```", `{"status":"PASS"}`},
		{"fence without info", "```\n[1,2]\n```", `[1,2]`},
		{"prose around", "Here is the review:\n{\"status\": \"WARN\"} hope it helps", `{"status":"WARN"}`},
		{"trailing commas", `{"a": [1, 2,], "b": 3,}`, `{"a":[1,2],"b":3}`},
		{"single quotes", `{'a': 'it"s'}`, `{"a":"it\"s"}`},
		{"unquoted keys", `{status: "PASS", new_queries: []}`, `{"status":"PASS","new_queries":[]}`},
		{"python literals", `{"a": True, "b": None, "c": False}`, `{"a":true,"b":null,"c":false}`},
		{"comments", "{\"a\": 1, // one\n /* two */ \"b\": 2}", `{"a":1,"b":2}`},
		{"truncated object", `{"draft": "partial text`, `{"draft":"partial text"}`},
		{"truncated nested", `{"a": [1, {"b": 2`, `{"a":[1,{"b":2}]}`},
		{"truncated after key", `{"a": 1, "b"`, `{"a":1,"b":null}`},
		{"truncated after colon", `{"a":`, `{"a":null}`},
		{"missing commas", `{"a": 1 "b": 2}`, `{"a":1,"b":2}`},
		{"missing colon", `{"a" 1}`, `{"a":1}`},
		{"mismatched close", `{"a": [1, 2}`, `{"a":[1,2]}`},
		{"numbers", `[+1, .5, -.5, 2.]`, `[1,0.5,-0.5,2]`},
		{"escapes kept", `{'a': 'line\nnext \u00e9'}`, `{"a":"line\nnext é"}`},
		{"raw newline in string", "{\"a\": \"x\ny\",}", `{"a":"x\ny"}`},
		{"bare word value", `{"status": PASS}`, `{"status":"PASS"}`},
		{"doubled commas", `[1,,2]`, `[1,2]`},
		{"garbage after root", `{"a":1}} trailing`, `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Repair([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.True(t, json.Valid(got))
		})
	}
}

func TestRepairRejects(t *testing.T) {
	for _, in := range []string{"", "no json here", "PASS"} {
		_, err := Repair([]byte(in))
		assert.ErrorIs(t, err, ErrNoJSON, "input %q", in)
	}
}

func FuzzRepair(f *testing.F) {
	for _, s := range []string{
		`{"a":1}`, "```json\n{'a': [1,2,]}\n```", `{a: True, b: 'x`, `[1 2 3`, `{"a" "b"}`,
		`{"a": {"b": [}}`, `//c` + "\n" + `[1]`, `{"x": -.e5}`, `{,}`, `[:]`, `{"k": "\u12"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Repair(in)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Repair(%q) = %q: not valid JSON", in, out)
		}
		if json.Valid(in) {
			var a, b any
			if json.Unmarshal(in, &a) == nil && json.Unmarshal(out, &b) == nil {
				assert.Equal(t, a, b, "valid input changed")
			}
		}
	})
}

func BenchmarkRepair(b *testing.B) {
	in := []byte("```json\n{status: 'PASS', critique: 'ok', suggestions: ['a', 'b',], logical_gaps: [\n```")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Repair(in); err != nil {
			b.Fatal(err)
		}
	}
}
