package file

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taipei is the zone of zone-less times in these tests.
var taipei = time.FixedZone("Asia/Taipei", 8*3600)

// configured returns a file source configured with cfg.
func configured(t testing.TB, cfg map[string]any) *Source {
	t.Helper()
	s := New()
	s.loc = taipei
	plugintest.Configure(t, s, cfg)
	return s
}

func ids(recs []sdk.Record) []string {
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

// examplePath is the repository's example issues file.
const examplePath = "../../examples/data/issues.jsonl"

func TestIssuesFilters(t *testing.T) {
	s := configured(t, map[string]any{"path": examplePath})
	all := plugintest.Fetch(t, s, sdk.FetchRequest{})
	require.Len(t, all, 40)

	// Expected results are computed from the loaded records with plain
	// loops, independent of the filter code under test.
	where := func(keep func(sdk.Record) bool) []string {
		var out []string
		for _, r := range all {
			if keep(r) {
				out = append(out, r.ID)
			}
		}
		return out
	}
	str := func(r sdk.Record, k string) string { s, _ := r.Fields[k].(string); return s }
	since, until := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		req  sdk.FetchRequest
		want []string
	}{
		{"project, any case", sdk.FetchRequest{Filters: map[string][]string{"projects": {"pay"}}},
			where(func(r sdk.Record) bool { return str(r, "project") == "PAY" })},
		{"two projects", sdk.FetchRequest{Filters: map[string][]string{"projects": {"PAY", "OPS"}}},
			where(func(r sdk.Record) bool { return str(r, "project") != "SHOP" })},
		{"status in progress spelled differently", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"In Progress"}}},
			where(func(r sdk.Record) bool { return str(r, "status") == "in-progress" })},
		{"unresolved group", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"unresolved"}}},
			where(func(r sdk.Record) bool { s := str(r, "status"); return s == "open" || s == "in-progress" })},
		{"resolved group", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"Resolved"}}},
			where(func(r sdk.Record) bool { s := str(r, "status"); return s == "resolved" || s == "closed" })},
		{"gitlab's opened", sdk.FetchRequest{Filters: map[string][]string{"statuses": {"opened"}}},
			where(func(r sdk.Record) bool { return str(r, "status") == "open" })},
		{"author substring", sdk.FetchRequest{Filters: map[string][]string{"authors": {"CHEN"}}},
			where(func(r sdk.Record) bool { return r.Author == "Alice Chen" })},
		{"label", sdk.FetchRequest{Filters: map[string][]string{"labels": {"Incident"}}},
			where(func(r sdk.Record) bool {
				for _, l := range r.Fields["labels"].([]string) {
					if l == "incident" {
						return true
					}
				}
				return false
			})},
		{"query over title and body", sdk.FetchRequest{Filters: map[string][]string{"query": {"REFUND"}}},
			where(func(r sdk.Record) bool {
				return strings.Contains(strings.ToLower(r.Title+" "+r.Body), "refund")
			})},
		{"time range", sdk.FetchRequest{Since: since, Until: until},
			where(func(r sdk.Record) bool { return !r.Time.Before(since) && r.Time.Before(until) })},
		{"everything combined", sdk.FetchRequest{Since: since, Until: until, Kind: "issue",
			Filters: map[string][]string{"projects": {"PAY"}, "statuses": {"open"}, "providers": {"youtrack"}}},
			where(func(r sdk.Record) bool {
				return str(r, "project") == "PAY" && str(r, "status") == "open" && !r.Time.Before(since) && r.Time.Before(until)
			})},
		{"limit", sdk.FetchRequest{Limit: 3}, []string{all[0].ID, all[1].ID, all[2].ID}},
		{"other kind", sdk.FetchRequest{Kind: sdk.KindCommit}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotEmpty(t, tt.want == nil || len(tt.want) > 0)
			got := ids(plugintest.Fetch(t, s, tt.req))
			if tt.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tt.want, got)
			assert.Less(t, len(got), len(all)+1)
		})
	}
}

func TestIssueRecord(t *testing.T) {
	s := configured(t, map[string]any{"path": examplePath})
	recs := plugintest.Fetch(t, s, sdk.FetchRequest{Filters: map[string][]string{"query": {"double charge"}}})
	require.Len(t, recs, 1)
	r := recs[0]
	assert.Equal(t, "PAY-115", r.ID)
	assert.Equal(t, "file", r.Source, "rows without a source get the configured default")
	assert.Equal(t, sdk.KindIssue, r.Kind)
	assert.Equal(t, "Erin Tsai", r.Author)
	assert.Equal(t, "https://youtrack.example.com/issue/PAY-115", r.URL)
	assert.True(t, time.Date(2026, 9, 15, 2, 18, 0, 0, time.UTC).Equal(r.Time))
	assert.Equal(t, "closed", r.Fields["status"])
	assert.Equal(t, "PAY", r.Fields["project"])
	assert.Equal(t, []string{"checkout", "incident"}, r.Fields["labels"])
	assert.Equal(t, "Critical", r.Fields["priority"])
	assert.Equal(t, "2026-09-14T11:02:00Z", r.Fields["created"])
}

func TestCSV(t *testing.T) {
	s := configured(t, map[string]any{"path": "testdata/issues.csv", "kind": "issue", "source": "tracker"})
	recs := plugintest.Fetch(t, s, sdk.FetchRequest{})
	require.Len(t, recs, 3)
	assert.Equal(t, []string{"ABC-1", "ABC-2", "XYZ-7"}, ids(recs))
	assert.Equal(t, "Login fails, with a comma", recs[0].Title)
	assert.Equal(t, "tracker", recs[0].Source)
	assert.Equal(t, sdk.KindIssue, recs[0].Kind)
	assert.Equal(t, []string{"auth", "ui"}, recs[0].Fields["labels"])
	assert.True(t, time.Date(2024, 1, 10, 0, 0, 0, 0, taipei).Equal(recs[0].Time), "a date is midnight in the source's zone")
	assert.Equal(t, "3", recs[0].Fields["estimate"], "CSV cells stay strings")
	assert.Equal(t, "Multi-line\ntitle", recs[2].Title)
	assert.NotContains(t, recs[2].Fields, "estimate", "empty cells are left out")
	assert.NotContains(t, recs[2].Fields, "labels")

	byStatus := plugintest.Fetch(t, s, sdk.FetchRequest{Filters: map[string][]string{"statuses": {"in-progress"}}})
	assert.Equal(t, []string{"ABC-2"}, ids(byStatus))
}

func TestJSONArrayAndMapping(t *testing.T) {
	s := configured(t, map[string]any{"path": "testdata/docs.json", "fields": map[string]string{"title": "summary"}})
	recs := plugintest.Fetch(t, s, sdk.FetchRequest{})
	require.Len(t, recs, 2)
	assert.Equal(t, sdk.KindDocument, recs[0].Kind)
	assert.Equal(t, 1, recs[0].Tier)
	assert.Equal(t, "Release notes 1.0", recs[0].Fields["title"], "a remapped field's own column becomes a plain field")
	assert.Empty(t, recs[0].Title)
	assert.Equal(t, "Nested", recs[1].Title)
	assert.Equal(t, `{"pages":3}`, recs[1].Fields["meta"], "objects keep their JSON text")
	assert.Equal(t, `[1,2]`, recs[1].Fields["scores"])
}

func TestPaths(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("b.jsonl", `{"id":"b1","title":"from b"}`+"\n")
	write("a.csv", "id,title\na1,from a\n")
	write("c.ndjson", `{"id":"c1"}`+"\n\n"+`{"id":"c2"}`)
	write("notes.txt", "ignored")
	write("x.data", `{"id":"x1"}`)

	tests := []struct {
		name string
		cfg  map[string]any
		want []string
	}{
		{"directory, files sorted, unknown extensions skipped", map[string]any{"path": dir}, []string{"a1", "b1", "c1", "c2"}},
		{"glob", map[string]any{"path": filepath.Join(dir, "*.*json*")}, []string{"b1", "c1", "c2"}},
		{"format override", map[string]any{"path": filepath.Join(dir, "x.data"), "format": "jsonl"}, []string{"x1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ids(plugintest.Fetch(t, configured(t, tt.cfg), sdk.FetchRequest{})))
		})
	}

	t.Run("missing id gets file:line", func(t *testing.T) {
		write("noid.jsonl", "\n"+`{"title":"anonymous"}`+"\n")
		recs := plugintest.Fetch(t, configured(t, map[string]any{"path": filepath.Join(dir, "noid.jsonl")}), sdk.FetchRequest{})
		require.Len(t, recs, 1)
		assert.Equal(t, "noid.jsonl:2", recs[0].ID)
	})
}

func TestEmbeddedFallback(t *testing.T) {
	for _, name := range []string{"issues.jsonl", "news.jsonl"} {
		t.Run(name, func(t *testing.T) {
			original, err := os.ReadFile(filepath.Join("../../examples/data", name))
			require.NoError(t, err)
			copied, err := embedded.ReadFile("data/" + name)
			require.NoError(t, err)
			assert.Equal(t, string(original), string(copied), "plugins/file/data/%s must be a copy of examples/data/%s", name, name)

			// From a directory where the relative default path does not exist.
			t.Chdir(t.TempDir())
			s := configured(t, map[string]any{"path": "examples/data/" + name})
			recs := plugintest.Fetch(t, s, sdk.FetchRequest{})
			assert.Len(t, recs, strings.Count(string(original), "\n"))
		})
	}
	t.Run("other missing paths are errors", func(t *testing.T) {
		t.Chdir(t.TempDir())
		diags, err := New().Configure(context.Background(), json.RawMessage(`{"path": "data/issues.jsonl"}`))
		require.NoError(t, err)
		require.True(t, diags.HasErrors())
		assert.Contains(t, diags[0].Summary, "data/issues.jsonl does not exist")
	})
}

func TestNews(t *testing.T) {
	s := configured(t, map[string]any{"path": "../../examples/data/news.jsonl"})
	recs := plugintest.Fetch(t, s, sdk.FetchRequest{})
	sources := map[string]bool{}
	for _, r := range recs {
		sources[r.Source] = true
		assert.Equal(t, sdk.KindDocument, r.Kind)
		assert.False(t, r.Time.IsZero())
	}
	for _, want := range []string{"中央社", "公視", "聯合報", "報導者", "PTT", "Dcard"} {
		assert.True(t, sources[want], "news.jsonl has items from %s", want)
	}
	var want []string
	for _, r := range recs {
		if strings.Contains(r.Title+r.Body, "電價") {
			want = append(want, r.ID)
		}
	}
	require.NotEmpty(t, want)
	assert.Equal(t, want, ids(plugintest.Fetch(t, s, sdk.FetchRequest{Filters: map[string][]string{"query": {"電價"}}})))
}

func TestMalformed(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, file, content string
		want                string
	}{
		{"jsonl syntax", "bad.jsonl", `{"id":"1"}` + "\n" + `{"id": 2,}` + "\n", "bad.jsonl:2: want valid JSON"},
		{"jsonl not an object", "arr.jsonl", "\n\n[1,2]\n", "arr.jsonl:3: want a JSON object, got an array"},
		{"jsonl two objects on a line", "two.jsonl", `{"id":"1"} {"id":"2"}`, "two.jsonl:1: want one JSON object per line"},
		{"jsonl truncated", "cut.jsonl", `{"id":"1"}` + "\n" + `{"id": "2", "title": "x`, "cut.jsonl:2: want a complete JSON object"},
		{"bad time", "time.jsonl", `{"id":"1","time":"last tuesday"}`, `time.jsonl:1: column "time": want an RFC 3339 time or a YYYY-MM-DD date, got "last tuesday"`},
		{"bad tier", "tier.jsonl", `{"id":"1","tier":"gold"}`, `tier.jsonl:1: column "tier": want an integer tier`},
		{"object title", "title.jsonl", `{"id":"1","title":{"en":"x"}}`, `title.jsonl:1: column "title": want a string, got map`},
		{"bad labels", "labels.jsonl", `{"id":"1","labels":[1,{"a":1}]}`, `labels.jsonl:1: column "labels": want an array of strings, element 1`},
		{"json array element", "arr.json", "[\n {\"id\":\"1\"},\n 42\n]", "arr.json:3: want a JSON object, got a number"},
		{"json syntax", "syn.json", "[\n {\"id\":\"1\"},\n {\"id\" \"2\"}\n]", "syn.json:3: want valid JSON"},
		{"json unclosed array", "open.json", "[\n {\"id\":\"1\"}\n", "open.json:3: want ] closing the array"},
		{"json trailing data", "trail.json", "[{\"id\":\"1\"}]\nxyz", `trail.json:2: want the end of the file after the array, got "xyz"`},
		{"csv field count", "count.csv", "id,title\n1,a\n2,b,extra\n", "count.csv:3: want as many columns as the header row"},
		{"csv quote", "quote.csv", "id,title\n1,\"open\n", "quote.csv:2: column"},
		{"csv duplicate header", "dup.csv", "id,id\n1,2\n", `dup.csv:1: header column "id" appears twice`},
		{"csv empty header", "empty.csv", "id,,x\n1,2,3\n", "empty.csv:1: header column 2 is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.file)
			require.NoError(t, os.WriteFile(p, []byte(tt.content), 0o644))
			s := configured(t, map[string]any{"path": p})
			err := s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { return nil })
			require.Error(t, err)
			assert.Contains(t, err.Error(), filepath.Join(dir, tt.want))
			assert.ErrorIs(t, err, sdk.ErrBadConfig)
		})
	}
}

func TestConfigure(t *testing.T) {
	tests := []struct {
		name, cfg, want string
		isError         bool
	}{
		{"no config", ``, "config needs path", true},
		{"not an object", `"x"`, "not a JSON object", true},
		{"no path", `{"kind": "issue"}`, "config needs path", true},
		{"bad format", `{"path": "testdata/docs.json", "format": "xml"}`, `format "xml": want json, jsonl, csv or markdown`, true},
		{"mapped unknown field", `{"path": "testdata/docs.json", "fields": {"headline": "title"}}`, `fields maps "headline", which is no record field`, true},
		{"column feeds two fields", `{"path": "testdata/docs.json", "fields": {"title": "x", "body": "x"}}`, `column "x" feeds both`, true},
		{"wrong type", `{"path": 3}`, "config path: want a string", true},
		{"missing file", `{"path": "testdata/nope.jsonl"}`, "testdata/nope.jsonl does not exist", true},
		{"glob without matches", `{"path": "testdata/*.xml"}`, `no files match "testdata/*.xml"`, true},
		{"unknown extension", `{"path": "testdata/README"}`, "", true},
		{"unknown key", `{"path": "testdata/docs.json", "delimiter": ";"}`, `unknown config key "delimiter"`, false},
	}
	require.NoError(t, os.WriteFile("testdata/README", []byte("x"), 0o644))
	t.Cleanup(func() { os.Remove("testdata/README") })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New()
			diags, err := s.Configure(context.Background(), json.RawMessage(tt.cfg))
			require.NoError(t, err)
			require.NotEmpty(t, diags)
			assert.Equal(t, tt.isError, diags.HasErrors())
			var all []string
			for _, d := range diags {
				all = append(all, d.Summary)
			}
			assert.Contains(t, strings.Join(all, "\n"), tt.want)
			if tt.isError {
				err := s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { return nil })
				assert.ErrorIs(t, err, sdk.ErrBadConfig)
			}
		})
	}
}

func TestFetchStops(t *testing.T) {
	s := configured(t, map[string]any{"path": examplePath})
	stop := errors.New("enough")
	calls := 0
	err := s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { calls++; return stop })
	assert.ErrorIs(t, err, stop, "emit's error comes back unchanged")
	assert.Equal(t, 1, calls)

	err = s.Fetch(context.Background(), sdk.FetchRequest{Since: time.Now(), Until: time.Now().Add(-time.Hour)}, func(sdk.Record) error { return nil })
	assert.ErrorIs(t, err, sdk.ErrBadRequest)
}

func TestDescribe(t *testing.T) {
	info, err := New().Describe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "file", info.Name)
	assert.Contains(t, info.Filters, "statuses")
	assert.True(t, json.Valid(info.ConfigSchema))
}
