package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/jsonindent"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reflected is p as encoding/json writes it for `nous plan --format json`
// (indented, HTML unescaped): what Plan.WriteJSON must write.
func reflected(t testing.TB, p *engine.Plan) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(p))
	return b.String()
}

// handWritten is p through jsonindent.Encode, which uses Plan.WriteJSON.
func handWritten(t testing.TB, p *engine.Plan) string {
	var b bytes.Buffer
	require.NoError(t, jsonindent.Encode(&b, p))
	return b.String()
}

// questions are the questions of the rule tests under examples/tests and
// of the server's benchmark, and some with characters JSON escapes.
func questions(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("..", "examples", "tests", "*.hcl"))
	require.NoError(t, err)
	quoted := regexp.MustCompile(`(?m)^\s*query\s*=\s*("(?:[^"\\]|\\.)*")`)
	var out []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range quoted.FindAllStringSubmatch(string(src), -1) {
			q, err := strconv.Unquote(m[1])
			require.NoError(t, err, "%s: %s", f, m[1])
			out = append(out, q)
		}
	}
	require.Greater(t, len(out), 40, "the rule tests' questions")
	return append(out,
		"what changed in March 2025?",
		"what changed in this repository last week?",
		"how many open issues are there?",
		"who contributed to plumbing/format/packfile since v1.17.0?",
		"what did Radek Simko commit in Q1 2025?",
		"which PRs labelled bug are assigned to octocat in the v2.0 milestone?",
		"is CI green on main?",
		"what about hclsyntax?",
		`commits in project "a<b>&c" by O'Brien\ since "v1.0"?`,
		"issues in project ünïcödé 日本語 🎉 with\ttabs\nand lines\u2028 and bad \xff bytes",
		"",
	)
}

// TestPlanWriteJSONAsEncodingJSON plans every example input and every
// question of the rule tests with both example rule sets, with and without
// plan validation, and compares Plan.WriteJSON with encoding/json.
func TestPlanWriteJSONAsEncodingJSON(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "examples", "inputs", "*.json"))
	require.NoError(t, err)
	var reqs []engine.Request
	for _, in := range inputs {
		reqs = append(reqs, readInput(t, filepath.Base(in)))
	}
	for _, q := range questions(t) {
		reqs = append(reqs, engine.Request{Query: q}, engine.Request{Query: q, Mode: "strict"})
	}
	for _, dir := range []string{"default", "example-data"} {
		rs, diags := rules.LoadFS(os.DirFS(filepath.Join("..", "examples", "rules", dir)), rules.WithEnv(map[string]string{}))
		require.False(t, diags.HasErrors(), "%s rules: %v", dir, diags)
		p := engine.NewPlanner(rs)
		for _, req := range reqs {
			pl, err := p.Plan(context.Background(), req)
			if err != nil {
				continue
			}
			assert.Equal(t, reflected(t, pl), handWritten(t, pl), "%s rules, %+v", dir, req)
			engine.ValidatePlan(pl, engine.SourceFactsFromRules(rs))
			assert.Equal(t, reflected(t, pl), handWritten(t, pl), "%s rules, %+v, validated", dir, req)
		}
	}
}

// FuzzPlanWriteJSON plans a question with the default rules and compares
// Plan.WriteJSON with encoding/json.
func FuzzPlanWriteJSON(f *testing.F) {
	for _, q := range []string{"what changed in March 2025?", `commits in project "a<b>" by O'Brien`, "bad \xff \u2028"} {
		f.Add(q)
	}
	p := defaultPlanner(f)
	f.Fuzz(func(t *testing.T, q string) {
		pl, err := p.Plan(context.Background(), engine.Request{Query: q})
		if err != nil {
			return
		}
		engine.ValidatePlan(pl, engine.SourceFactsFromRules(p.Rules()))
		if got, want := handWritten(t, pl), reflected(t, pl); got != want {
			t.Fatalf("%q: Plan.WriteJSON writes\n%s\nencoding/json\n%s", q, got, want)
		}
	})
}

// TestPlanWriteJSONEveryField fills every serialised field of plans at
// random (nil, empty and set slices, maps and pointers; strings JSON
// escapes), so a field added to the plan without its writer fails here.
func TestPlanWriteJSONEveryField(t *testing.T) {
	assert.Equal(t, "null\n", handWritten(t, nil))
	for seed := range uint64(300) {
		f := filler{rand.New(rand.NewPCG(seed, 7))}
		var p engine.Plan
		f.fill(reflect.ValueOf(&p).Elem(), 0)
		require.Equal(t, reflected(t, &p), handWritten(t, &p), "seed %d", seed)
	}
}

type filler struct{ r *rand.Rand }

var fillStrings = []string{"", "h0", "a<b>&c", `q"\`, "tab\t\x01", "ü 日本", "\u2028", "bad \xff"}

var timeType = reflect.TypeFor[time.Time]()

func (f filler) fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(fillStrings[f.r.IntN(len(fillStrings))])
	case reflect.Int, reflect.Int64:
		v.SetInt([]int64{0, 1, -3, 45e9}[f.r.IntN(4)])
	case reflect.Float64:
		v.SetFloat([]float64{0, 0.85, 1, 1e-7, 2.5e21, 1.0 / 3}[f.r.IntN(6)])
	case reflect.Bool:
		v.SetBool(f.r.IntN(2) == 0)
	case reflect.Pointer:
		if depth < 6 && f.r.IntN(3) > 0 {
			v.Set(reflect.New(v.Type().Elem()))
			f.fill(v.Elem(), depth+1)
		}
	case reflect.Slice:
		if depth >= 6 || f.r.IntN(4) == 0 {
			return
		}
		n := f.r.IntN(3)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		if depth >= 6 || f.r.IntN(4) == 0 {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for range f.r.IntN(4) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			f.fill(k, depth+1)
			f.fill(e, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		if v.Type() == timeType {
			if f.r.IntN(2) == 0 {
				v.Set(reflect.ValueOf(time.Date(2025, 3, 1+f.r.IntN(28), 12, 0, 0, f.r.IntN(2)*5e8, time.UTC)))
			}
			return
		}
		for i := range v.NumField() {
			if sf := v.Type().Field(i); sf.IsExported() && sf.Tag.Get("json") != "-" {
				f.fill(v.Field(i), depth+1)
			}
		}
	}
}

// BenchmarkPlanWriteJSON writes a three-intent plan's indented JSON, as
// `nous plan --format json` and POST /v1/plan print it; "reflect" is
// encoding/json's reflection for the same bytes.
func BenchmarkPlanWriteJSON(b *testing.B) {
	p := plan(b, defaultPlanner(b), readInput(b, "query.json"))
	var buf bytes.Buffer
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			if err := jsonindent.Encode(&buf, p); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(buf.Len()), "out-B")
	})
	b.Run("reflect", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
