package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/sdktest"
)

// configured returns the plugin, served over the real protocol by sdktest
// and configured with path.
func configured(t *testing.T, path string) sdk.Source {
	t.Helper()
	src := sdktest.Source(t, NewSource())
	diags, err := src.Configure(context.Background(), mustJSON(t, map[string]any{"path": path, "source": "wiki", "tier": 2}))
	if err != nil || len(diags) > 0 {
		t.Fatalf("configure: %v %v", diags, err)
	}
	return src
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ids(records []sdk.Record) []string {
	out := make([]string, len(records))
	for i, r := range records {
		out[i] = r.ID
	}
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDescribe(t *testing.T) {
	src := configured(t, "testdata/notes.jsonl")
	info, err := src.Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "jsonl" || info.SDKVersion != sdk.Version {
		t.Errorf("name %q sdk %q", info.Name, info.SDKVersion)
	}
	if want := []string{"decision", "note"}; !equal(info.Kinds, want) {
		t.Errorf("kinds %v, want %v (those in the file)", info.Kinds, want)
	}
	if want := []string{"kind", "author", "query"}; !equal(info.Filters, want) {
		t.Errorf("filters %v, want %v", info.Filters, want)
	}
	if !json.Valid(info.ConfigSchema) {
		t.Errorf("config schema is not JSON: %s", info.ConfigSchema)
	}
}

func TestFetchMapsEveryLine(t *testing.T) {
	src := configured(t, "testdata/notes.jsonl")
	got, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"n1", "n2", "n3", "notes.jsonl:5"}; !equal(ids(got), want) {
		t.Fatalf("ids %v, want %v (file order; blank line skipped; missing id named by line)", ids(got), want)
	}
	n1 := got[0]
	wantTime := time.Date(2026, 4, 27, 9, 15, 0, 0, time.UTC)
	if n1.Kind != "note" || n1.Title != "Payments retry" || n1.Author != "ana" || !n1.Time.Equal(wantTime) || n1.Source != "wiki" || n1.Tier != 2 {
		t.Errorf("n1 = %+v", n1)
	}
	if tags, ok := n1.Fields["tags"].([]string); !ok || !equal(tags, []string{"payments", "reliability"}) {
		t.Errorf("tags = %#v, want a string list", n1.Fields["tags"])
	}
	if p, ok := n1.Fields["priority"].(int64); !ok || p != 2 {
		t.Errorf("priority = %#v, want int64 2", n1.Fields["priority"])
	}
	if d, ok := got[1].Fields["done"].(bool); !ok || !d {
		t.Errorf("done = %#v, want true", got[1].Fields["done"])
	}
	n3 := got[2]
	if !n3.Time.Equal(time.Date(2026, 5, 2, 0, 0, 0, 0, time.UTC)) || n3.URL != "https://wiki.example.com/adr/12" {
		t.Errorf("n3 = %+v", n3)
	}
	if s, ok := n3.Fields["score"].(float64); !ok || s != 0.75 {
		t.Errorf("score = %#v, want float64 0.75", n3.Fields["score"])
	}
	if o := n3.Fields["owner"]; o != `{"team":"payments"}` {
		t.Errorf("owner = %#v, want the object's JSON text", o)
	}
	if got[3].Kind != "note" || !got[3].Time.IsZero() {
		t.Errorf("line 5 = %+v", got[3])
	}
}

func TestFetchFilters(t *testing.T) {
	src := configured(t, "testdata/notes.jsonl")
	tests := []struct {
		name string
		req  sdk.FetchRequest
		want []string
	}{
		{"kind filter", sdk.FetchRequest{Filters: map[string][]string{"kind": {"decision"}}}, []string{"n3"}},
		{"request kind", sdk.FetchRequest{Kind: "note"}, []string{"n1", "n2", "notes.jsonl:5"}},
		{"author, any case", sdk.FetchRequest{Filters: map[string][]string{"author": {"ana"}}}, []string{"n1", "n3"}},
		{"authors are alternatives", sdk.FetchRequest{Filters: map[string][]string{"author": {"bo", "ana"}}}, []string{"n1", "n2", "n3"}},
		{"query text in title or body", sdk.FetchRequest{Filters: map[string][]string{"query": {"PAYMENTS"}}}, []string{"n1", "n3"}},
		{"filters combine", sdk.FetchRequest{Filters: map[string][]string{"author": {"ana"}, "query": {"outage"}}}, []string{"n3"}},
		{"since", sdk.FetchRequest{Since: time.Date(2026, 4, 29, 0, 0, 0, 0, time.UTC)}, []string{"n2", "n3"}},
		{"until, inclusive", sdk.FetchRequest{Until: time.Date(2026, 4, 29, 16, 0, 0, 0, time.UTC)}, []string{"n1", "n2"}},
		{"since and until", sdk.FetchRequest{Since: time.Date(2026, 4, 28, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 4, 30, 0, 0, 0, 0, time.UTC)}, []string{"n2"}},
		{"limit", sdk.FetchRequest{Limit: 2}, []string{"n1", "n2"}},
		{"nothing matches", sdk.FetchRequest{Kind: "commit"}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sdktest.Collect(context.Background(), src, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if !equal(ids(got), tc.want) {
				t.Errorf("ids %v, want %v", ids(got), tc.want)
			}
		})
	}
}

func TestConfigureDiagnostics(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"id\":\"ok\"}\nnot json\n{\"title\":7}\n{\"time\":\"last tuesday\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		config string
		want   []sdk.Diagnostic
	}{
		{"missing path", `{}`, []sdk.Diagnostic{{Severity: sdk.SeverityError, Summary: "jsonl: config needs path", Detail: "JSON-lines file to serve, relative to the rules file", Path: "path"}}},
		{"unknown key", `{"path":"testdata/notes.jsonl","paht":"x"}`, []sdk.Diagnostic{{Severity: sdk.SeverityWarning, Summary: `jsonl: unknown config key "paht" is ignored`, Detail: "known keys: path, source, tier, time_field", Path: "paht"}}},
		{"wrong type", `{"path":["a.jsonl"]}`, []sdk.Diagnostic{{Severity: sdk.SeverityError, Summary: `jsonl: config path: want a string, got ["a.jsonl"]`, Path: "path"}}},
		{"missing file", `{"path":"` + filepath.Join(dir, "nope.jsonl") + `"}`, []sdk.Diagnostic{{Severity: sdk.SeverityError, Summary: "Cannot read the file", Detail: "stat " + filepath.Join(dir, "nope.jsonl") + ": no such file or directory", Path: "path"}}},
		{"directory", `{"path":"` + dir + `"}`, []sdk.Diagnostic{{Severity: sdk.SeverityError, Summary: "Path is a directory", Detail: dir + " is a directory; want a JSON-lines file", Path: "path"}}},
		{"missing path and negative tier", `{"tier":-1}`, []sdk.Diagnostic{
			{Severity: sdk.SeverityError, Summary: "jsonl: config needs path", Detail: "JSON-lines file to serve, relative to the rules file", Path: "path"},
			{Severity: sdk.SeverityError, Summary: "Negative tier", Detail: "tier is -1; want 0 (unknown) or more", Path: "tier"},
		}},
		{"negative tier", `{"path":"testdata/notes.jsonl","tier":-1}`, []sdk.Diagnostic{{Severity: sdk.SeverityError, Summary: "Negative tier", Detail: "tier is -1; want 0 (unknown) or more", Path: "tier"}}},
		{"two objects on a line", `{"path":"testdata/two.jsonl"}`, []sdk.Diagnostic{{Severity: sdk.SeverityError, Summary: "Bad line in the file", Detail: `testdata/two.jsonl:1: unexpected text after the object: "{\"id\":\"b\"}"`, Path: "path"}}},
		{"bad lines", `{"path":"` + bad + `"}`, []sdk.Diagnostic{
			{Severity: sdk.SeverityError, Summary: "Bad line in the file", Detail: bad + ":2: invalid JSON: invalid character 'o' in literal null (expecting 'u')", Path: "path"},
			{Severity: sdk.SeverityError, Summary: "Bad line in the file", Detail: bad + `:3: key "title": want a string, got a number`, Path: "path"},
			{Severity: sdk.SeverityError, Summary: "Bad line in the file", Detail: bad + `:4: key "time": want an RFC 3339 time such as "2026-05-01T12:00:00Z" or a date such as "2026-05-01", got "last tuesday"`, Path: "path"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := sdktest.Source(t, NewSource())
			diags, err := src.Configure(context.Background(), json.RawMessage(tc.config))
			if err != nil {
				t.Fatal(err)
			}
			if len(diags) != len(tc.want) {
				t.Fatalf("diagnostics %+v, want %+v", diags, tc.want)
			}
			for i := range diags {
				if diags[i] != tc.want[i] {
					t.Errorf("diagnostic %d:\n got %+v\nwant %+v", i, diags[i], tc.want[i])
				}
			}
		})
	}
}

func TestFetchErrors(t *testing.T) {
	t.Run("not configured", func(t *testing.T) {
		src := sdktest.Source(t, NewSource())
		_, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
		if sdk.KindOf(err) != sdk.KindBadConfig {
			t.Errorf("err = %v, want a bad_config error", err)
		}
	})
	t.Run("file removed after configure", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "gone.jsonl")
		if err := os.WriteFile(path, []byte(`{"id":"a"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		src := configured(t, path)
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		_, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
		if sdk.KindOf(err) != sdk.KindNotFound {
			t.Errorf("err = %v, want a not_found error", err)
		}
	})
	t.Run("line broken after configure", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "edit.jsonl")
		if err := os.WriteFile(path, []byte("{\"id\":\"a\"}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		src := configured(t, path)
		if err := os.WriteFile(path, []byte("{\"id\":\"a\"}\n{\"id\":\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
		if len(got) != 1 || sdk.KindOf(err) != sdk.KindBadConfig {
			t.Fatalf("got %v, %v; want record a then a bad_config error", ids(got), err)
		}
		if want := "jsonl: " + path + ":2: invalid JSON: unexpected EOF"; err.Error() != want {
			t.Errorf("err = %q, want %q", err, want)
		}
	})
}

func FuzzDecodeLine(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a","time":"2026-05-01","tags":["x"],"n":1.5}`,
		`{"title":7}`,
		`null`,
		`{"x":[1,"a"],"y":{"z":null}}`,
		"{\"body\":\"caf\xe9\"}",
	} {
		f.Add([]byte(seed))
	}
	cfg := Config{TimeField: "time", Source: "jsonl"}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := decodeLine(line, cfg, "fuzz:1")
		if err != nil {
			return
		}
		if !json.Valid(line) {
			t.Errorf("accepted invalid JSON %q", line)
		}
		for name, v := range r.Fields {
			switch v.(type) {
			case string, int64, float64, bool, []string:
			default:
				t.Errorf("field %q has type %T, which cannot cross the wire", name, v)
			}
		}
	})
}

func TestConfigurePathIsRelativeToTheRulesFile(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	src := sdktest.Source(t, NewSource())
	diags, err := src.Configure(sdk.WithConfigDir(context.Background(), dir), json.RawMessage(`{"path":"notes.jsonl"}`))
	if err != nil || len(diags) != 0 {
		t.Fatalf("Configure: %v %+v", err, diags)
	}
	recs, err := sdktest.Collect(context.Background(), src, sdk.FetchRequest{})
	if err != nil || len(recs) == 0 {
		t.Fatalf("Collect: %v, %d records", err, len(recs))
	}
}
