package report

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/nous-dev/nous/engine"
	"github.com/nous-dev/nous/engine/jsonindent"
	"github.com/nous-dev/nous/engine/runner"
	"github.com/nous-dev/nous/engine/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reflectedJSON is doc as encoding/json writes it (through jsonindent's
// indenting): what the hand-written JSON must be, error included.
func reflectedJSON(doc Document) (string, error) {
	var b bytes.Buffer
	err := jsonindent.Encode(&b, doc)
	return b.String(), err
}

// handJSON is res rendered in the JSON format.
func handJSON(res *runner.Result) (string, error) {
	var b bytes.Buffer
	err := renderJSON(&b, res)
	return b.String(), err
}

func documentOf(res *runner.Result) Document {
	doc := Document{Plan: res.Plan, Result: res, History: res.History, Trace: res.Trace}
	if doc.Trace == nil && !traceOff(res) {
		doc.Trace = []trace.Entry{}
	}
	return doc
}

// TestJSONAsEncodingJSON fills every field of a result, its history and
// trace at random (each slice nil, empty or not, each pointer nil or not,
// strings JSON and HTML escape, times zoned, record fields of many types)
// and compares the JSON format with encoding/json's.
func TestJSONAsEncodingJSON(t *testing.T) {
	base := result()
	for seed := range uint64(400) {
		f := filler{rng: rand.New(rand.NewPCG(seed, 7))}
		var res runner.Result
		f.fill(reflect.ValueOf(&res).Elem(), 0)
		if seed%3 == 0 {
			res.Plan = base.Plan
		}
		want, wantErr := reflectedJSON(documentOf(&res))
		got, gotErr := handJSON(&res)
		require.Equal(t, wantErr, gotErr, "seed %d", seed)
		require.Equal(t, want, got, "seed %d", seed)
	}
}

// TestJSONRefusedAsEncodingJSON: a value encoding/json refuses fails the
// format with encoding/json's error.
func TestJSONRefusedAsEncodingJSON(t *testing.T) {
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := map[string]func(*runner.Result){
		"time out of range": func(r *runner.Result) { r.History.StartedAt = far },
		"record time":       func(r *runner.Result) { r.Records[0].Time = far },
		"NaN field":         func(r *runner.Result) { r.Records[0].Fields = map[string]any{"x": math.NaN()} },
		"NaN parameter": func(r *runner.Result) {
			r.Trace = append(r.Trace, trace.Entry{Parameters: trace.Params{{Key: "x", Value: math.Inf(1)}}})
		},
		"channel parameter": func(r *runner.Result) {
			r.Trace = append(r.Trace, trace.Entry{Parameters: trace.Params{{Key: "x", Value: make(chan int)}}})
		},
		"NaN completeness": func(r *runner.Result) { r.History.Passes[0].Convergence.Completeness = math.NaN() },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			res := result()
			require.NotEmpty(t, res.Records)
			change(res)
			want, wantErr := reflectedJSON(documentOf(res))
			got, gotErr := handJSON(res)
			require.Error(t, wantErr)
			assert.Equal(t, wantErr.Error(), gotErr.Error())
			assert.Equal(t, want, got)
		})
	}
}

// TestJSONFixtureAsEncodingJSON compares the format with encoding/json on
// the result of the golden tests.
func TestJSONFixtureAsEncodingJSON(t *testing.T) {
	res := result()
	want, err := reflectedJSON(documentOf(res))
	require.NoError(t, err)
	got, err := handJSON(res)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

func BenchmarkRenderJSON(b *testing.B) {
	res := result()
	for i := range 40 {
		r := res.Records[0]
		r.ID = fmt.Sprint("PAY-", i)
		r.Fields = map[string]any{"status": "open", "project": "PAY", "labels": []string{"bug", "ui"}, "votes": int64(i)}
		res.Records = append(res.Records, r)
	}
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		if err := Render(&buf, "json", res, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// filler fills values at random.
type filler struct{ rng *rand.Rand }

var (
	timeType  = reflect.TypeFor[time.Time]()
	planType  = reflect.TypeFor[engine.Plan]()
	strValues = []string{"", "a", "plain text", `quote " and \ backslash`, "<b>&amp;</b>", "line\nbreak\ttab\r", "\u2028\u2029",
		"bad \xff utf-8", "ünïcödé 日本語 🎉", "\x00\x1f control"}
	zones = []*time.Location{time.UTC, time.FixedZone("TPE", 8*3600), time.FixedZone("odd", -(3*3600 + 30*60))}
)

func (f filler) str() string { return strValues[f.rng.IntN(len(strValues))] }

// anyValue is a value of a type a record field or trace parameter holds.
func (f filler) anyValue() any {
	switch f.rng.IntN(12) {
	case 0:
		return nil
	case 1:
		return f.str()
	case 2:
		return f.rng.IntN(2) == 0
	case 3:
		return f.rng.IntN(2000) - 1000
	case 4:
		return int64(f.rng.Uint64() >> 1)
	case 5:
		return []float64{0, 0.5, -1e-7, 1e21, 123456.789, 1e20}[f.rng.IntN(6)]
	case 6:
		return []string{f.str(), f.str()}
	case 7:
		return []string{}
	case 8:
		return []any{f.str(), 1.5, nil}
	case 9:
		return map[string]any{"k": f.str(), "a": []string{"x"}}
	case 10:
		return float32(0.1)
	}
	return uint8(7)
}

// fill sets v, settable, to a random value of its type.
func (f filler) fill(v reflect.Value, depth int) {
	t := v.Type()
	switch {
	case t == timeType:
		if f.rng.IntN(3) > 0 {
			tm := time.Date(2020+f.rng.IntN(8), time.Month(1+f.rng.IntN(12)), 1+f.rng.IntN(28), f.rng.IntN(24), f.rng.IntN(60), 0, f.rng.IntN(3)*123456789, zones[f.rng.IntN(len(zones))])
			v.Set(reflect.ValueOf(tm))
		}
		return
	case t == planType:
		return // plans are the planner's: Plan.WriteJSON has its own test
	}
	switch t.Kind() {
	case reflect.String:
		v.SetString(f.str())
	case reflect.Bool:
		v.SetBool(f.rng.IntN(2) == 0)
	case reflect.Int, reflect.Int64, reflect.Int32:
		if f.rng.IntN(3) > 0 {
			v.SetInt(int64(f.rng.IntN(20000) - 100))
		}
	case reflect.Float64:
		v.SetFloat([]float64{0, 1, 0.25, 1e-9, 3e21}[f.rng.IntN(5)])
	case reflect.Interface:
		if a := f.anyValue(); a != nil {
			v.Set(reflect.ValueOf(a))
		}
	case reflect.Pointer:
		if depth < 6 && f.rng.IntN(4) > 0 {
			p := reflect.New(t.Elem())
			f.fill(p.Elem(), depth+1)
			v.Set(p)
		}
	case reflect.Slice:
		switch n := f.rng.IntN(5); {
		case n == 0 || depth >= 6:
		case n == 1:
			v.Set(reflect.MakeSlice(t, 0, 0))
		default:
			s := reflect.MakeSlice(t, n-1, n-1)
			for i := range n - 1 {
				f.fill(s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Map:
		switch n := f.rng.IntN(5); {
		case n == 0 || depth >= 6:
		case n == 1:
			v.Set(reflect.MakeMap(t))
		default:
			m := reflect.MakeMap(t)
			for i := range n {
				k := reflect.New(t.Key()).Elem()
				k.SetString(fmt.Sprintf("%s%d", f.str(), i))
				e := reflect.New(t.Elem()).Elem()
				f.fill(e, depth+1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				f.fill(v.Field(i), depth+1)
			}
		}
	}
}

// TestJSONRecordFieldsAsEncodingJSON: records whose field names repeat,
// change, shrink to a subset or keep their count with another name (the
// sorted keys of one record are reused for the next) still write as
// encoding/json writes them.
func TestJSONRecordFieldsAsEncodingJSON(t *testing.T) {
	res := result()
	base := res.Records[0]
	for _, fields := range []map[string]any{
		{"b": "1", "a": int64(2), "c": []string{"x"}},
		{"a": "3", "b": "4", "c": []string{}},
		{"a": "5", "b": "6"},
		{"a": "7", "b": "8", "d": true},
		{"a": "9", "b": "10", "d": false},
		nil,
		{"z": 1.5},
		{"b": "1", "a": int64(2), "c": []string{"x"}},
	} {
		r := base
		r.Fields = fields
		res.Records = append(res.Records, r)
	}
	want, err := reflectedJSON(documentOf(res))
	require.NoError(t, err)
	got, err := handJSON(res)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}
